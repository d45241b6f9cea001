package lint

import (
	"encoding/json"
	"math/big"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// numberNote says how Helm read a number whose text in a values file
// means another number (every YAML number goes through a float64, and
// Helm's YAML reader takes 0x1F, 010 and 8_080): "Helm reads 0.10000000000000001
// as the number 0.1", for an error at ptr the source wrote; "" where the
// value is no number, the text means the number Helm holds, or the value
// is a secret.
func (hv *helmValues) numberNote(s *schema.Schema, src *valuesSource, ptr string) string {
	if src == nil || src.file == nil || (s != nil && s.SecretAt(ptr)) {
		return ""
	}
	node, _ := src.file.treeAt(src.within(ptr))
	if node == nil {
		return ""
	}
	v, ok := pointer.Get(hv.values, ptr)
	num, isNum := v.(json.Number)
	if !ok || !isNum {
		return ""
	}
	n := nodeAt(node, src.within(ptr))
	if n == nil || n.Kind != yaml.ScalarNode || n.Style != 0 {
		return ""
	}
	held, ok := new(big.Rat).SetString(string(num))
	if !ok {
		return ""
	}
	if written, ok := new(big.Rat).SetString(n.Value); ok && written.Cmp(held) == 0 {
		return ""
	}
	return "Helm reads " + n.Value + " as the number " + string(num) + ": every YAML number goes through a float64"
}
