package migrate_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func secretSchema(t *testing.T, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(text))
	require.NoError(t, err)
	return s
}

// resultText is everything a Result can show: its errors and its report,
// as a program would print them.
func resultText(t *testing.T, r outcome) string {
	t.Helper()
	raw, err := json.Marshal(struct {
		D []migrate.Dropped
		L []migrate.Lossy
		E schema.ErrorList
	}{r.Dropped, r.Lossy, r.Errors})
	require.NoError(t, err)
	return fmt.Sprint(r.Errors) + fmt.Sprint(r.Dropped) + fmt.Sprint(r.Lossy) + string(raw)
}

// TestMigrationHidesSecrets: a secret in any schema of the way (the
// oldest, an intermediate, the target) keeps the value out of dropped and
// lossy reports and out of error messages.
func TestMigrationHidesSecrets(t *testing.T) {
	const plainOld = `{properties: {pw: {type: string}, pin: {type: number}, name: {type: string}}}`
	for _, tc := range []struct {
		name          string
		old, mid, new string // "" for none
		input, secret string
		dropped       bool   // the secret is reported as dropped
		lossy         bool   // the secret is reported as lossy
		wantErr       string // part of an error message
	}{
		{name: "dropped, writeOnly in the oldest schema",
			old: `{properties: {pw: {type: string, writeOnly: true}}}`, new: `{properties: {name: {type: string}}}`,
			input: `{"pw": "S3cr3tXYZ"}`, secret: "S3cr3tXYZ", dropped: true},
		{name: "dropped object holding a secret",
			old: `{properties: {db: {type: object, properties: {pw: {type: string, format: password}}}}}`, new: `{properties: {name: {type: string}}}`,
			input: `{"db": {"pw": "S3cr3tXYZ"}}`, secret: "S3cr3tXYZ", dropped: true},
		{name: "dropped at the second step, marked only in the oldest",
			old: `{properties: {pw: {type: string, writeOnly: true}}}`, mid: plainOld, new: `{properties: {name: {type: string}}}`,
			input: `{"pw": "S3cr3tXYZ"}`, secret: "S3cr3tXYZ", dropped: true},
		{name: "dropped at the second step, marked only in the intermediate",
			mid: `{properties: {pw: {type: string, format: password}}}`, new: `{properties: {name: {type: string}}}`,
			input: `{"pw": "S3cr3tXYZ"}`, secret: "S3cr3tXYZ", dropped: true},
		{name: "lossy refused, writeOnly in the target",
			new:   `{properties: {pin: {type: integer, writeOnly: true}}}`,
			input: `{"pin": 8675.309}`, secret: "8675", lossy: true, wantErr: "/pin: changing number (value hidden) to number (value hidden) loses information"},
		{name: "lossy, marked only in the oldest, two steps on",
			old: `{properties: {pin: {type: number, writeOnly: true}}}`, mid: plainOld, new: `{properties: {pin: {type: integer}}}`,
			input: `{"pin": 8675.309}`, secret: "8675", lossy: true, wantErr: "number (value hidden)"},
		{name: "lossy, moved by oldName into a secret",
			new:   `{properties: {code: {type: integer, format: password, oldName: pin}}}`,
			input: `{"pin": 8675.309}`, secret: "8675", lossy: true, wantErr: "/code: changing number (value hidden)"},
		{name: "does not fit, through $ref",
			new:   `{properties: {pin: {$ref: '#/$defs/s'}}, $defs: {s: {type: integer, writeOnly: true}}}`,
			input: `{"pin": true}`, secret: "true", wantErr: "/pin: boolean (value hidden) does not fit here"},
		{name: "out of range for its format, below a secret object",
			new:   `{properties: {db: {type: object, writeOnly: true, properties: {port: {type: integer, format: int32}}}}}`,
			input: `{"db": {"port": 86753090000}}`, secret: "86753090000", wantErr: "/db/port: (value hidden) is out of range for format int32"},
		{name: "validation of the result",
			new:   `{properties: {pin: {type: integer, writeOnly: true, maximum: 10}}}`,
			input: `{"pin": 8675309}`, secret: "8675309", wantErr: "/pin: must be <= 10 but found (value hidden)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []migrate.Option
			if tc.old != "" {
				opts = append(opts, migrate.FromVersion(secretSchema(t, tc.old)))
			}
			if tc.mid != "" {
				opts = append(opts, migrate.ThroughVersions(secretSchema(t, tc.mid)))
			}
			m, err := migrate.New(secretSchema(t, tc.new), opts...)
			require.NoError(t, err)
			in, err := params.Decode(nil, []byte(tc.input))
			require.NoError(t, err)
			r := got(m.Migrate(in))
			assert.NotContains(t, resultText(t, r), tc.secret)
			if tc.dropped {
				require.Len(t, r.Dropped, 1)
				assert.True(t, r.Dropped[0].Hidden)
				assert.Nil(t, r.Dropped[0].Value)
			}
			if tc.lossy {
				require.Len(t, r.Lossy, 1)
				assert.True(t, r.Lossy[0].Hidden)
				assert.Nil(t, r.Lossy[0].From)
				assert.Nil(t, r.Lossy[0].To)
			}
			if tc.wantErr != "" {
				require.NotEmpty(t, r.Errors)
				assert.Contains(t, fmt.Sprint(r.Errors), tc.wantErr)
			}
		})
	}
}

// TestMigrationQuotesPlainValues is the control: without a secret the
// report carries the values and the messages quote them.
func TestMigrationQuotesPlainValues(t *testing.T) {
	m, err := migrate.New(secretSchema(t, `{properties: {pin: {type: integer}}}`),
		migrate.FromVersion(secretSchema(t, `{properties: {pin: {type: number}, pw: {type: string}}}`)))
	require.NoError(t, err)
	in, err := params.Decode(nil, []byte(`{"pin": 8675.309, "pw": "visible"}`))
	require.NoError(t, err)
	r := got(m.Migrate(in))
	require.Len(t, r.Dropped, 1)
	assert.False(t, r.Dropped[0].Hidden)
	assert.Equal(t, "visible", r.Dropped[0].Value)
	require.Len(t, r.Lossy, 1)
	assert.False(t, r.Lossy[0].Hidden)
	assert.Equal(t, json.Number("8675.309"), r.Lossy[0].From)
	assert.Contains(t, fmt.Sprint(r.Errors), "changing number 8675.309 to number 8675")
}

// TestMigrateHiding: the schema of the input's version, given only to
// hide its secrets, hides them without changing how values convert.
func TestMigrateHiding(t *testing.T) {
	previous := secretSchema(t, `{properties: {pin: {type: number, writeOnly: true}, pw: {type: string, format: password}}}`)
	m, err := migrate.New(secretSchema(t, `{properties: {pin: {type: integer}}}`))
	require.NoError(t, err)
	in, err := params.Decode(nil, []byte(`{"pin": 8675.309, "pw": "S3cr3tXYZ"}`))
	require.NoError(t, err)

	plain := got(m.Migrate(in))
	assert.Contains(t, resultText(t, plain), "8675.309", "without the previous schema nothing says these are secrets")

	r := got(m.MigrateHiding(in, previous))
	text := resultText(t, r)
	assert.NotContains(t, text, "8675")
	assert.NotContains(t, text, "S3cr3tXYZ")
	require.Len(t, r.Dropped, 1)
	assert.True(t, r.Dropped[0].Hidden)
	require.Len(t, r.Lossy, 1)
	assert.True(t, r.Lossy[0].Hidden)
	assert.Equal(t, plain.Values, r.Values, "the values convert as they do without it")
	assert.Len(t, r.Errors, len(plain.Errors))
}

// TestMigrationNeverQuotesSecrets is a property: whatever secret values
// an input holds, and whichever schema of the chain marks them, no
// report entry or message of the Result quotes them.
func TestMigrationNeverQuotesSecrets(t *testing.T) {
	old := secretSchema(t, `{properties: {pw: {type: string, writeOnly: true}, pin: {type: number, format: password}, db: {type: object, writeOnly: true}}}`)
	mid := secretSchema(t, `{properties: {pw: {type: string}, db: {type: object}, code: {type: integer, writeOnly: true, oldName: pin}}}`)
	target := secretSchema(t, `{properties: {code2: {type: integer, format: int32, maximum: 9, oldName: code}, db: {type: object, properties: {port: {type: integer}}}}}`)
	m, err := migrate.New(target, migrate.FromVersion(old), migrate.ThroughVersions(mid))
	require.NoError(t, err)
	rng := rand.New(rand.NewSource(16))
	for i := 0; i < 200; i++ {
		sec := fmt.Sprintf("Q%dx%dZ", rng.Int63(), i)
		num := json.Number(fmt.Sprintf("%d.%d", 100000+rng.Intn(900000), 1+rng.Intn(9)))
		for _, in := range []map[string]any{
			{"pw": sec},
			{"pin": num},
			{"pin": sec},
			{"db": map[string]any{"port": sec, "x": sec}},
			{"db": sec},
			{"pw": []any{sec}, "pin": true},
		} {
			text := resultText(t, got(m.Migrate(in)))
			require.NotContains(t, text, sec, "%v", in)
			require.NotContains(t, text, string(num)[:6], "%v", in)
		}
		// Down: the value goes back through the versions that mark it.
		for _, in := range []map[string]any{{"code2": sec}, {"code2": num}, {"code2": []any{sec}}} {
			text := resultText(t, got(m.Down(in)))
			require.NotContains(t, text, sec, "%v", in)
			require.NotContains(t, text, string(num)[:6], "%v", in)
		}
	}
}
