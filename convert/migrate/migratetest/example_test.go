package migratetest_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/paramkit/paramkit/convert/migrate/migratetest"
	"github.com/paramkit/paramkit/schema"
)

func ExampleRandomValue() {
	s, _ := schema.Parse([]byte(`
type: object
required: [clusterName]
properties:
  clusterName: {type: string}
  nodeCount: {type: integer, minimum: 1, maximum: 9}
  backup: {type: object, properties: {enabled: {type: boolean}}}
`))
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3; i++ {
		v, err := migratetest.RandomValue(s, rnd)
		fmt.Println(err == nil && s.Valid(v))
	}
	// Output:
	// true
	// true
	// true
}
