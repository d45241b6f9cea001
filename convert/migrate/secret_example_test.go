package migrate_test

import (
	"fmt"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/schema"
)

// A value marked secret (writeOnly or format: password) in any schema on
// its way is reported without its value.
func ExampleMigration_MigrateHiding() {
	previous, _ := schema.Parse([]byte(`{properties: {password: {type: string, writeOnly: true}, name: {type: string}}}`))
	target, _ := schema.Parse([]byte(`{properties: {name: {type: string}}}`))
	m, _ := migrate.New(target)
	r, err := m.MigrateHiding(map[string]any{"name": "a", "password": "hunter2"}, previous)
	if err != nil {
		panic(err)
	}
	for _, d := range r.Dropped {
		fmt.Println(d.Pointer, d.Hidden, d.Value)
	}
	// Output:
	// /password true <nil>
}
