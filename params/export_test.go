package params

// DecodeAll is the in-memory reading of a whole `---` stream that Decode
// falls back on, for tests that compare Decode's direct path with it.
var DecodeAll = decodeStream
