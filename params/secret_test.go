package params_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// secretSchema marks secrets by writeOnly, by format: password, by an
// ancestor, through $ref and items, and keeps plain nodes beside them.
const secretSchema = `
type: object
properties:
  name: {type: string}
  replicas: {type: integer, minimum: 1}
  password: {type: string, format: password, minLength: 8}
  pin: {type: integer, writeOnly: true}
  db:
    type: object
    writeOnly: true
    properties:
      port: {type: integer}
      user: {type: string}
  ref: {$ref: '#/$defs/token'}
  list: {type: array, items: {type: integer, writeOnly: true}}
  holder:
    type: object
    properties:
      key: {type: integer, format: password}
      label: {type: string}
  frozen: {type: string, writeOnly: true, immutable: true}
$defs:
  token: {type: integer, writeOnly: true}
`

const secretOld = `{"name": "a", "replicas": 1, "list": [1], "frozen": "OldS3cretFrozen", "db": {"port": 1}, "holder": {"label": "x"}}`

func secretFixture(t testing.TB) (*schema.Schema, any) {
	t.Helper()
	s, err := schema.Parse([]byte(secretSchema))
	require.NoError(t, err)
	old, err := params.Decode(s, []byte(secretOld))
	require.NoError(t, err)
	return s, old
}

// assertHidden checks an error, as text and as JSON, for the secret and
// for the (value hidden) mark.
func assertHidden(t *testing.T, err error, secretText string) {
	t.Helper()
	require.Error(t, err)
	assert.NotContains(t, err.Error(), secretText)
	assert.Contains(t, err.Error(), schema.Hidden)
	raw, jerr := json.Marshal(err)
	require.NoError(t, jerr)
	assert.NotContains(t, string(raw), secretText)
}

func TestUpdateHidesSecrets(t *testing.T) {
	s, old := secretFixture(t)
	for _, tc := range []struct {
		name   string
		e      edits
		secret string
		want   []string // what the error must still say
	}{
		{"writeOnly, wrong type", edits{set: []string{"pin=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`/pin: expected integer, but got string (value hidden)`}},
		{"format password, wrong type", edits{patches: []string{`{"password": 86753091}`}}, "86753091",
			[]string{`/password: expected string, but got number (value hidden)`}},
		{"a flow collection that does not read", edits{set: []string{"db={port: S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`/db: from "db=(value hidden)": the text cannot take this node's type`}},
		{"ancestor", edits{set: []string{"db.port=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`/db/port: expected integer`}},
		{"$ref", edits{set: []string{"ref=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`/ref: expected integer`}},
		{"items", edits{set: []string{"list.0=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`/list/0: expected integer`}},
		{"an object holding a secret", edits{set: []string{"holder={key: S3cr3tXYZ}"}}, "S3cr3tXYZ",
			[]string{`/holder/key: expected integer`}},
		{"text where an object holding a secret belongs", edits{set: []string{"holder=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`/holder: expected object, but got string (value hidden)`}},
		{"path below a secret scalar", edits{set: []string{"pin.x=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`nothing can be set below it`, `"pin.x=(value hidden)"`}},
		{"array index missing", edits{set: []string{"list.5=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`"list.5=(value hidden)"`}},
		{"add operation", edits{ops: []string{"add /pin=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`/pin: expected integer`}},
		{"replace of a missing value", edits{ops: []string{"replace /pin=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`"replace /pin=(value hidden)": /pin does not exist`}},
		{"add below a missing parent", edits{ops: []string{"add /db/nosuch/x=S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`"add /db/nosuch/x=(value hidden)"`}},
		{"merge patch", edits{patches: []string{"pin: S3cr3tXYZ"}}, "S3cr3tXYZ",
			[]string{`/pin: expected integer, but got string (value hidden)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runUpdate(t, s, old, tc.e)
			assertHidden(t, err, tc.secret)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestUpdateImmutableSecret(t *testing.T) {
	s, old := secretFixture(t)
	_, err := runUpdate(t, s, old, edits{set: []string{"frozen=NewS3cretFrozen"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "/frozen: cannot be changed")
	assert.NotContains(t, err.Error(), "OldS3cretFrozen")
	assert.NotContains(t, err.Error(), "NewS3cretFrozen")
}

// TestUpdateQuotesPlainValues is the control: a value that is no secret
// is still quoted, in the message and in the echoed assignment.
func TestUpdateQuotesPlainValues(t *testing.T) {
	s, old := secretFixture(t)
	_, err := runUpdate(t, s, old, edits{set: []string{"replicas=lots"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `/replicas: expected integer, but got string "lots"`)
	assert.NotContains(t, err.Error(), schema.Hidden)
	_, err = runUpdate(t, s, old, edits{set: []string{"holder.label.x=visible"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"holder.label.x=visible"`)
}

func TestDecodeHidesSecrets(t *testing.T) {
	s, _ := secretFixture(t)
	for _, tc := range []struct{ doc, secret string }{
		{"pin: !!bool S3cr3tXYZ\n", "S3cr3tXYZ"},
		{"db:\n  port: !!int S3cr3tXYZ\n", "S3cr3tXYZ"},
		{"list: [!!float S3cr3tXYZ]\n", "S3cr3tXYZ"},
	} {
		docs, err := readAll(s, []byte(tc.doc))
		require.NoError(t, err)
		assertHidden(t, docs[0].Err, tc.secret)
		_, err = params.DecodePatch(s, []byte(tc.doc))
		assertHidden(t, err, tc.secret)
	}
	docs, err := readAll(s, []byte("name: !!bool visible\n"))
	require.NoError(t, err)
	require.Error(t, docs[0].Err)
	assert.Contains(t, docs[0].Err.Error(), `"visible" is not a boolean`)
}

// TestSecretsNeverQuoted is a property: whatever a secret value is, no
// error of Update.Run or Validate quotes it.
func TestSecretsNeverQuoted(t *testing.T) {
	s, old := secretFixture(t)
	rng := rand.New(rand.NewSource(16))
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.!@#"
	keys := []string{"pin", "password", "db.port", "db.user", "ref", "list.0", "holder.key", "frozen", "db", "holder", "pin.x", "list.3"}
	for i := 0; i < 300; i++ {
		b := make([]byte, 6+rng.Intn(20))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		sec := "Q" + string(b) + "Z" // never a substring of anything else
		key := keys[rng.Intn(len(keys))]
		var e edits
		switch rng.Intn(3) {
		case 0:
			e.set = []string{key + "=" + sec}
		case 1:
			e.ops = []string{"replace /" + strings.ReplaceAll(key, ".", "/") + "=" + sec}
		default:
			e.set = []string{key + "=[" + sec + "]"}
		}
		_, err := runUpdate(t, s, old, e)
		if err != nil {
			raw, _ := json.Marshal(err)
			require.NotContains(t, err.Error()+string(raw), sec, fmt.Sprint(e))
		}
		doc := map[string]any{"pin": sec, "db": map[string]any{"port": sec}, "ref": sec, "list": []any{sec}, "holder": map[string]any{"key": sec}}
		verr := params.Validate(s, doc)
		require.Error(t, verr)
		require.NotContains(t, verr.Error(), sec)
	}
}

// FuzzSecretsHidden: whatever the secret text and however it is given
// (-p, an operation, a merge patch), no error of the update quotes it.
// Only letters, digits, "." "_" and "-" are kept, so that the text stays
// one scalar (a ":" in it would make a key, and keys are not hidden).
func FuzzSecretsHidden(f *testing.F) {
	s, old := secretFixture(f)
	keys := []string{"pin", "password", "db.port", "db.user", "ref", "list.0", "holder.key", "frozen", "db", "holder", "pin.x", "list.3"}
	f.Add(uint8(0), uint8(0), "hunter2")
	f.Add(uint8(2), uint8(1), "1.5")
	f.Add(uint8(5), uint8(2), "true")
	f.Add(uint8(8), uint8(3), "x-y_z")
	f.Add(uint8(9), uint8(4), "007")
	f.Fuzz(func(t *testing.T, k, form uint8, text string) {
		clean := strings.Map(func(r rune) rune {
			if r < 128 && (r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				return r
			}
			return -1
		}, text)
		sec := "QZ" + clean + "ZQ"
		key := keys[int(k)%len(keys)]
		var e edits
		switch form % 5 {
		case 0:
			e.set = []string{key + "=" + sec}
		case 1:
			e.set = []string{key + "=[" + sec + "]"}
		case 2:
			e.set = []string{key + "={a: " + sec + "}"}
		case 3:
			e.ops = []string{"replace /" + strings.ReplaceAll(key, ".", "/") + "=" + sec}
		default:
			e.patches = []string{strings.ReplaceAll(key, ".", ": {") + ": " + sec + strings.Repeat("}", strings.Count(key, "."))}
		}
		u := params.Update{Schema: s, Old: old}
		for _, p := range e.patches {
			v, err := params.DecodePatch(s, []byte(p))
			if err != nil {
				require.NotContains(t, err.Error(), sec)
				return
			}
			u.Patches = append(u.Patches, v)
		}
		u.Set = e.set
		u.Operations = e.ops
		_, err := u.Run()
		if err != nil {
			raw, _ := json.Marshal(err)
			require.NotContains(t, err.Error()+string(raw), sec, "%v", e)
		}
	})
}
