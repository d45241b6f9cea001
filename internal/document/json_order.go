package document

import (
	"bytes"
	"encoding/json"

	"github.com/paramkit/paramkit/internal/pointer"
)

// jsonKeyOrder records the source order of every object's keys, keyed by
// the JSON pointer of the object, for a document DecodeJSON accepted.
func jsonKeyOrder(data []byte) map[string][]string {
	out := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(ptr string) bool
	walk = func(ptr string) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		d, ok := tok.(json.Delim)
		if !ok {
			return true
		}
		switch d {
		case '{':
			keys := []string{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return false
				}
				k, _ := kt.(string)
				keys = append(keys, k)
				if !walk(pointer.Append(ptr, k)) {
					return false
				}
			}
			out[ptr] = keys
		case '[':
			for i := 0; dec.More(); i++ {
				if !walk(pointer.AppendIndex(ptr, i)) {
					return false
				}
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err == nil
	}
	walk("")
	return out
}
