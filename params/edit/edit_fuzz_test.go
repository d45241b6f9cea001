package edit_test

import (
	"strings"
	"testing"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/edit"
	"github.com/paramkit/paramkit/schema"
)

// FuzzValues holds Values to the plain update: for any values file and
// any update, decoding the edited file gives exactly the values the
// update produced (numbers by their text), or Values says it cannot edit
// in place (kind schema.KindUsage); it never panics. Where the update
// removes nothing, every comment line of the file survives.
func FuzzValues(f *testing.F) {
	srcs := []string{
		"# app\nname: web # the name\nreplicas: 2\n",
		"image:\n    registry: docker.io\n    tag: \"v1\"\n",
		"resources: {}\n  # limits:\n  #   cpu: 100m\ndebug: true\n",
		"ports:\n- 80 # http\n- 81\nenv: {A: a}\n",
		"{\n  \"name\": \"web\",\n  \"image\": {\"tag\": \"v1\"}\n}\n",
		"name:\nextra: |\n  one\n  two\n",
		"a: &x {b: 1}\nc: *x\n",
		"",
	}
	sets := []string{"replicas=5", "image.tag=1.10\nname=x", "resources.cpu=1", "ports[1]=82\nenv.B=b", "extra={\"a\":[1,2]}", "debug=true\nzzz=1"}
	for _, src := range srcs {
		for _, set := range sets {
			f.Add([]byte(src), set, "")
		}
		f.Add([]byte(src), "", "remove name")
		f.Add([]byte(src), "", "add ports=443")
	}
	s, err := schema.Parse([]byte(appSchema))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte, set, ops string) {
		old, err := params.Decode(s, src)
		if err != nil {
			if strings.TrimSpace(string(src)) != "" {
				return
			}
			old = map[string]any{}
		}
		u := params.Update{Schema: s, Old: old, Sparse: true}
		if set != "" {
			u.Set = strings.Split(set, "\n")
		}
		if ops != "" {
			u.Operations = strings.Split(ops, "\n")
		}
		r, err := u.Run()
		if err != nil {
			return
		}
		out, err := edit.Values(s, src, old, r.Values)
		if err != nil {
			list := schema.ErrorsOf(err)
			if len(list) == 0 || list[0].Kind != schema.KindUsage && list[0].Kind != schema.KindSyntax && list[0].Kind != schema.KindLimit {
				t.Fatalf("an error of an unexpected kind: %v", err)
			}
			return
		}
		got, err := params.Decode(s, out)
		if err != nil && strings.TrimSpace(string(out)) != "" {
			t.Fatalf("the edited file does not read: %v\n%s", err, out)
		}
		if err == nil && !params.Identical(got, r.Values) {
			t.Fatalf("the edited file reads as %v, the update gave %v\n%s", got, r.Values, out)
		}
		if ops == "" && !strings.ContainsAny(string(src), "{[") {
			for _, c := range topComments(string(src)) {
				if !strings.Contains(string(out), c) {
					t.Fatalf("the comment %q was lost:\n%s", c, out)
				}
			}
		}
	})
}

// topComments returns the comment lines at the left margin that stand
// between top-level entries (the next line with content is at the
// margin too): no edit of a value covers them.
func topComments(src string) []string {
	lines := strings.Split(strings.ReplaceAll(src, "\r", ""), "\n")
	var out []string
	for i, line := range lines {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		next := ""
		for _, l := range lines[i+1:] {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				next = l
				break
			}
		}
		if next == "" || next[0] != ' ' && next[0] != '\t' && next[0] != '-' {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}
