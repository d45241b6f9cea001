package params_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/params"
)

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
