package params

// DecodeAll is the in-memory reading of a whole `---` stream that Decode
// falls back on, for tests that compare Decode's direct path with it.
var DecodeAll = decodeStream

// The parser of -p assignments and the value helpers are unexported; the
// tests of the package's own behaviour reach them under their former
// names.
type Assignment = assignment

var (
	ParseAssignment = readAssignment
	Clone           = cloneValue
	MergePatch      = mergePatchPlain
)

const MaxBracketIndex = maxBracketIndex
