package migrate_test

import (
	"fmt"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The KEP-33 upgrade: the operator's new version restructures its
// parameters and names the old ones with oldName.
const upgradedSchema = `
type: object
properties:
  clusterName:
    type: string
    default: my-cluster
    oldName: CLUSTER_NAME
  backup:
    type: object
    required: [enabled]
    properties:
      enabled:
        type: boolean
        oldName: BACKUP_ENABLED
      credentials:
        type: object
        properties:
          name:
            type: string
            oldName: BACKUP_CREDENTIALS_USERNAME
          password:
            type: string
            oldName: BACKUP_CREDENTIALS_PASSWORD
`

func ExampleMigration_MigrateDocument() {
	s, err := schema.Parse([]byte(upgradedSchema))
	if err != nil {
		panic(err)
	}
	m, err := migrate.New(s)
	if err != nil {
		panic(err) // a schema whose old names conflict
	}
	r, err := m.MigrateDocument([]byte(`
CLUSTER_NAME: "my-cluster"
BACKUP_ENABLED: false
BACKUP_CREDENTIALS_USERNAME: "some value"
BACKUP_CREDENTIALS_PASSWORD: "some password"
HARDWARE_PROFILE: dell
`))
	out, _ := params.MarshalYAML(s, r.Values)
	fmt.Print(string(out))
	for _, d := range r.Dropped {
		fmt.Printf("dropped %s: %v\n", d.Pointer, d.Value)
	}
	fmt.Println("errors:", len(schema.ErrorsOf(err)))
	// Output:
	// clusterName: my-cluster
	// backup:
	//   enabled: false
	//   credentials:
	//     name: some value
	//     password: some password
	// dropped /HARDWARE_PROFILE: dell
	// errors: 0
}

func ExampleMigration_Down() {
	old, _ := schema.Parse([]byte(`
properties:
  CLUSTER_NAME: {type: string}
  BACKUP_ENABLED: {type: boolean}
`))
	new, _ := schema.Parse([]byte(`
properties:
  clusterName: {type: string, oldName: CLUSTER_NAME}
  backup:
    properties:
      enabled: {type: boolean, oldName: BACKUP_ENABLED}
      region: {type: string}
`))
	m, _ := migrate.New(new, migrate.FromVersion(old), migrate.Lossless())
	v := map[string]any{"clusterName": "prod", "backup": map[string]any{"enabled": true, "region": "eu-west-1"}}
	down, err := m.Down(v)
	if err != nil {
		panic(err)
	}
	fmt.Println(down.Values.(map[string]any)["CLUSTER_NAME"], down.Values.(map[string]any)["BACKUP_ENABLED"])
	_, hasBag := down.Values.(map[string]any)["x-paramkit-bag"]
	fmt.Println("bag:", hasBag)
	up, err := m.Migrate(down.Values)
	if err != nil {
		panic(err)
	}
	fmt.Println(up.Values.(map[string]any)["backup"])
	// Output:
	// prod true
	// bag: true
	// map[enabled:true region:eu-west-1]
}
