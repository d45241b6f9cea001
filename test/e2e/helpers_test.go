//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

var namespaces atomic.Int64

// namespace creates a namespace of the test's own; the cluster is thrown
// away at the end, so nothing is deleted.
func (c *cluster) namespace(t *testing.T) string {
	t.Helper()
	name := strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "-"))
	if len(name) > 50 {
		name = name[:50]
	}
	name = fmt.Sprintf("%s-%d", strings.Trim(name, "-"), namespaces.Add(1))
	c.mustNamespace(t, name)
	return name
}

func (c *cluster) mustNamespace(t *testing.T, name string) {
	t.Helper()
	require.NoError(t, c.createNamespace(name))
}

func (c *cluster) createNamespace(name string) error {
	r, err := c.api.doJSON(context.Background(), http.MethodPost, "/api/v1/namespaces",
		map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}})
	if err != nil {
		return err
	}
	if r.code != http.StatusCreated && r.code != http.StatusConflict {
		return fmt.Errorf("creating namespace %s: %d %s", name, r.code, r.body)
	}
	return nil
}

// path is the URL path of a kudo.dev collection (name "") or object.
func path(version, resource, ns, name string) string {
	p := "/apis/kudo.dev/" + version + "/namespaces/" + ns + "/" + resource
	if name != "" {
		p += "/" + name
	}
	return p
}

// call sends obj (JSON; a merge patch for PATCH) and returns the response.
func (c *cluster) call(t *testing.T, method, path string, obj any) *response {
	t.Helper()
	r, err := c.api.doJSON(context.Background(), method, path, obj)
	require.NoError(t, err, "%s %s", method, path)
	return r
}

// expect sends obj and requires the status code, returning the decoded
// object and the response.
func (c *cluster) expect(t *testing.T, code int, method, path string, obj any) (map[string]any, *response) {
	t.Helper()
	r := c.call(t, method, path, obj)
	require.Equal(t, code, r.code, "%s %s answered %s", method, path, r.body)
	o, err := decodeObject(r.body)
	require.NoError(t, err)
	return o, r
}

func (c *cluster) create(t *testing.T, version, resource, ns string, obj map[string]any) (map[string]any, *response) {
	t.Helper()
	return c.expect(t, http.StatusCreated, http.MethodPost, path(version, resource, ns, ""), obj)
}

func (c *cluster) get(t *testing.T, version, resource, ns, name string) map[string]any {
	t.Helper()
	o, _ := c.expect(t, http.StatusOK, http.MethodGet, path(version, resource, ns, name), nil)
	return o
}

// denied sends obj and requires the apiserver to refuse it with a client
// error, returning the Status message.
func (c *cluster) denied(t *testing.T, method, path string, obj any) string {
	t.Helper()
	r := c.call(t, method, path, obj)
	require.True(t, r.code >= 400 && r.code < 500, "%s %s should be refused, answered %d %s", method, path, r.code, r.body)
	var st struct {
		Kind, Message string
	}
	require.NoError(t, json.Unmarshal(r.body, &st), "%s", r.body)
	require.Equal(t, "Status", st.Kind, "%s", r.body)
	return st.Message
}

// at reads the value at a dotted path of nested objects ("spec.parameters").
func at(t testing.TB, o map[string]any, dotted string) any {
	t.Helper()
	var v any = o
	for _, k := range strings.Split(dotted, ".") {
		m, ok := v.(map[string]any)
		require.True(t, ok, "%s: %q is not in an object (%v)", dotted, k, v)
		v, ok = m[k]
		require.True(t, ok, "%s: no %q", dotted, k)
	}
	return v
}

// parameters is spec.parameters of an object.
func parameters(t *testing.T, o map[string]any) any {
	t.Helper()
	return at(t, o, "spec.parameters")
}

// plain decodes JSON text into the plain values the tests compare against
// (numbers as json.Number, as the apiserver's answers are decoded).
func plain(t *testing.T, text string) any {
	t.Helper()
	o, err := decodeObject([]byte(`{"v":` + text + `}`))
	require.NoError(t, err)
	return o["v"]
}

// withRV sets metadata.resourceVersion, as a PUT needs it.
func withRV(obj, from map[string]any) map[string]any {
	obj["metadata"].(map[string]any)["resourceVersion"] = from["metadata"].(map[string]any)["resourceVersion"]
	return obj
}

// needRecorder skips t when the apiserver calls paramctl directly.
func (c *cluster) needRecorder(t *testing.T) *recorder {
	t.Helper()
	if c.rec == nil {
		t.Skip(envDirect + "=1: the apiserver calls paramctl directly, so its requests are not recorded")
	}
	return c.rec
}
