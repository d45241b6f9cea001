package params

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// TestConcurrentUseOfOneSchema: one compiled schema serves many
// goroutines at once, as in a webhook; run with -race.
func TestConcurrentUseOfOneSchema(t *testing.T) {
	s, err := schema.Parse([]byte(`
type: object
$defs:
  label: {type: object, properties: {key: {type: string}, value: {type: string, default: none}}}
properties:
  name: {type: string, default: demo, immutable: true}
  replicas: {type: integer, minimum: 1, default: 3}
  labels: {type: array, items: {$ref: "#/$defs/label"}}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean, default: false}
      schedule: {type: string, default: "0 2 * * *"}
`))
	require.NoError(t, err)
	const goroutines = 32
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				doc := fmt.Sprintf("replicas: %d\nlabels:\n- key: k%d\nbackup: {enabled: true}\n", i%5+1, g)
				v, err := Decode(s, []byte(doc))
				if err != nil {
					errs <- err
					return
				}
				if v, err = Default(s, v); err != nil {
					errs <- err
					return
				}
				if err := Validate(s, v); err != nil {
					errs <- err
					return
				}
				m := v.(map[string]any)
				if m["name"] != "demo" || m["labels"].([]any)[0].(map[string]any)["value"] != "none" {
					errs <- fmt.Errorf("defaults missing: %v", m)
					return
				}
				if err := Validate(s, map[string]any{"replicas": json.Number("0")}); err == nil {
					errs <- fmt.Errorf("replicas 0 accepted")
					return
				}
				if n := s.Lookup("/labels/3/value"); n == nil || n.Name() != "value" {
					errs <- fmt.Errorf("lookup: %v", n)
					return
				}
				if x, _ := ParseText(s.Root().Child("labels"), "[{key: a}]"); !value.Equal(x, []any{map[string]any{"key": "a"}}) {
					errs <- fmt.Errorf("ParseText: %v", x)
					return
				}
				_, _ = MarshalJSON(s, v, "")
				count := 0
				s.Walk(func(*schema.Node) bool { count++; return true })
				if count == 0 {
					errs <- fmt.Errorf("walk saw nothing")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	// The schema's own defaults were not shared out and changed.
	def, _ := s.Root().Child("name").Default().(string)
	assert.Equal(t, "demo", def)
}
