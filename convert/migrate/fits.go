package migrate

// Fits returns the names of the versions of the set whose schema the
// values v are valid against, oldest first (as Order lists them): which
// version a document was written for, so that a command that finds it
// invalid against the newest schema can say "this file is v1: upgrade
// it" instead of listing what v1's names look like to v2. It only
// validates v against each schema (Schema.Valid, no error lists, no
// defaults): cheap enough to ask for every invalid document. v is plain
// values as params.Decode gives them. No version fits gives an empty
// list; a VersionSet not made by NewVersionSet or LoadVersionSet gives an
// error of kind schema.KindUsage.
func (s *VersionSet) Fits(v any) ([]string, error) {
	if err := s.unmade(); err != nil {
		return nil, err
	}
	out := []string{}
	for _, ver := range s.versions {
		if ver.Schema.Valid(v) {
			out = append(out, ver.Name)
		}
	}
	return out, nil
}
