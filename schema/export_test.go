package schema

// FastVerdict exposes the allocation-free fast check to the external
// tests: has is false when the schema has none.
func FastVerdict(s *Schema, v any) (valid, sure, has bool) {
	f := s.fastCheck()
	if f == nil {
		return false, false, false
	}
	valid, sure = fastValid(f, v)
	return valid, sure, true
}

// EngineValid is the bare engine's verdict on the compiled schema.
func EngineValid(s *Schema, v any) bool { return s.compiled.Validate(v) == nil }
