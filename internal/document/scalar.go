package document

import (
	"encoding/json"
	"strconv"
)

// ScalarText returns the text of a scalar as its author wrote it: a plain
// scalar verbatim, a string as is, a number's digits, a boolean's word.
// null gives "" and ok; collections give ok false.
func ScalarText(v any) (string, bool) {
	switch t := v.(type) {
	case Text:
		if t.Value() == nil {
			return "", true
		}
		return string(t), true
	case string:
		return t, true
	case json.Number:
		return string(t), true
	case bool:
		return strconv.FormatBool(t), true
	case nil:
		return "", true
	}
	return "", false
}
