package lint

import "github.com/paramkit/paramkit/schema"

// compactSecret is compact, or schema.Hidden for a value of a node that
// is or holds a secret (writeOnly, format: password): findings that
// check a default or an example hide it as validation messages do.
func compactSecret(s *schema.Schema, schemaPtr string, v any) string {
	if s.NodeAt(schemaPtr).HoldsSecret() {
		return schema.Hidden
	}
	return compact(v)
}
