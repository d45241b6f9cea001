package params_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/params"
)

// Clone gives a copy to edit; the stored values stay as they were.
func ExampleClone() {
	stored := map[string]any{"backup": map[string]any{"enabled": true, "hours": []any{json.Number("2")}}}
	next := params.Clone(stored).(map[string]any)
	next["backup"].(map[string]any)["enabled"] = false
	next["backup"].(map[string]any)["hours"].([]any)[0] = json.Number("4")
	for _, v := range []any{stored, next} {
		out, err := params.MarshalJSON(nil, v, "")
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(string(out))
	}
	// Output:
	// {"backup":{"enabled":true,"hours":[2]}}
	// {"backup":{"enabled":false,"hours":[4]}}
}

// Equal compares numbers by value, Identical by their text.
func ExampleEqual() {
	a := map[string]any{"replicas": json.Number("3"), "ratio": json.Number("1.10")}
	b := map[string]any{"replicas": 3, "ratio": json.Number("1.1")}
	fmt.Println(params.Equal(a, b))
	fmt.Println(params.Identical(a, b))
	// Output:
	// true
	// false
}

// Identical tells apart values that a round trip must keep as written.
func ExampleIdentical() {
	fmt.Println(params.Identical(json.Number("1000"), json.Number("1000")))
	fmt.Println(params.Identical(json.Number("1E3"), json.Number("1000")))
	fmt.Println(params.Identical(json.Number("9007199254740993"), json.Number("9007199254740992")))
	// Output:
	// true
	// false
	// false
}
