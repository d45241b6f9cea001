package migrate_test

import (
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Migration between two versions: the new schema names the old place of
// a renamed field with oldName. FromVersion is optional; with it a change
// of type between the two schemas converts exactly, and Down works.
func ExampleNew() {
	v1, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: string}
  name: {type: string}
`))
	v2, _ := schema.Parse([]byte(`
type: object
properties:
  nodeCount: {type: integer, oldName: replicas}
  name: {type: string}
`))
	m, err := migrate.New(v2, migrate.FromVersion(v1))
	if err != nil {
		panic(err) // a schema whose old names conflict
	}
	r, err := m.MigrateDocument([]byte(`{"replicas": "3", "name": "zk", "zone": "a"}`))
	out, _ := params.MarshalYAML(v2, r.Values)
	fmt.Print(string(out))
	for _, d := range r.Dropped {
		fmt.Println("dropped", d.Pointer)
	}
	fmt.Println("error:", err)
	// Output:
	// nodeCount: 3
	// name: zk
	// dropped /zone
	// error: <nil>
}

// Migration through versions in between, oldest first, so that no version
// has to be installed on the way: v1's port becomes v2's listen.port and
// v3's server.listen.port.
func ExampleNew_throughVersions() {
	v2, _ := schema.Parse([]byte(`
type: object
properties:
  listen: {type: object, properties: {port: {type: integer, oldName: /port}}}
`))
	v3, _ := schema.Parse([]byte(`
type: object
properties:
  server: {type: object, properties: {listen: {type: object, oldName: /listen}}}
`))
	m, err := migrate.New(v3, migrate.ThroughVersions(v2))
	if err != nil {
		panic(err)
	}
	r, err := m.Migrate(map[string]any{"port": json.Number("8080")})
	fmt.Println(r.Values, err)
	// Output:
	// map[server:map[listen:map[port:8080]]] <nil>
}

// A version set, for several versions served at once: values convert
// between any two of them, both ways, through the hub.
func ExampleNewVersionSet() {
	v1, _ := schema.Parse([]byte("type: object\nproperties:\n  replicas: {type: integer}\n"))
	v2, _ := schema.Parse([]byte("type: object\nproperties:\n  nodeCount: {type: integer, oldName: replicas}\n"))
	set, err := migrate.NewVersionSet([]migrate.Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}})
	if err != nil {
		panic(err)
	}
	up, _ := set.Convert(map[string]any{"replicas": json.Number("3")}, "v1", "v2")
	down, _ := set.Convert(up.Values, "v2", "v1")
	fmt.Println(set.Hub(), up.Values, down.Values)
	// Output:
	// v2 map[nodeCount:3] map[replicas:3]
}

// Every failure is the error, one *schema.Error per problem
// (schema.ErrorsOf); the Result still says what became of the values.
func ExampleMigration_Migrate() {
	v2, _ := schema.Parse([]byte(`
type: object
properties:
  nodeCount: {type: integer, oldName: replicas}
`))
	m, err := migrate.New(v2)
	if err != nil {
		panic(err)
	}
	r, err := m.Migrate(map[string]any{"replicas": json.Number("3")})
	fmt.Println(r.Values, err)
	r, err = m.Migrate(map[string]any{"replicas": "three"})
	for _, e := range schema.ErrorsOf(err) {
		fmt.Println(e.Pointer, e.Kind)
	}
	fmt.Println(r.Values)
	// Output:
	// map[nodeCount:3] <nil>
	// /nodeCount type
	// map[nodeCount:three]
}
