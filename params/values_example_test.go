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
	fmt.Println(string(params.MarshalJSON(nil, stored, "")))
	fmt.Println(string(params.MarshalJSON(nil, next, "")))
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

// SplitDocuments hands out a stream one document at a time, so that one
// document that cannot be read does not hide the others; each knows the
// line of the stream where it starts.
func ExampleSplitDocuments() {
	stream := []byte("replicas: 3\n---\nreplicas: [\n---\n# only a comment\n---\n{\"replicas\": 5}\n")
	for i, doc := range params.SplitDocuments(stream) {
		v, err := params.Decode(nil, doc.Text)
		if err != nil {
			fmt.Printf("document %d, from line %d: cannot be read\n", i, doc.Line)
			continue
		}
		fmt.Printf("document %d: %s\n", i, params.MarshalJSON(nil, v, ""))
	}
	// Output:
	// document 0: {"replicas":3}
	// document 1, from line 3: cannot be read
	// document 2: {"replicas":5}
}
