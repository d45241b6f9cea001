package migrate_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// A stream of any length, read document by document: results come back
// in input order, errors with lines of the whole stream.
func ExampleReader() {
	s, _ := schema.Parse([]byte(upgradedSchema))
	m, _ := migrate.New(s)
	in := strings.NewReader("CLUSTER_NAME: a\n---\nCLUSTER_NAME: [b\n---\nCLUSTER_NAME: c\n")
	err := migrate.Reader(context.Background(), m, in, 0, func(d params.Document[migrate.Result]) error {
		if d.Err != nil {
			e := schema.ErrorsOf(d.Err)[0]
			fmt.Println(d.Index, e.Line, e.Kind)
			return nil
		}
		fmt.Println(d.Index, d.Value.Values)
		return nil
	})
	fmt.Println(err)
	// Output:
	// 0 map[clusterName:a]
	// 1 3 syntax
	// 2 map[clusterName:c]
	// <nil>
}
