package migrate

import (
	"errors"
	"fmt"
	"github.com/paramkit/paramkit/internal/fileread"
	"io/fs"
	"path"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// versionsFile is the name of the file that orders a version set folder.
const versionsFile = "versions.yaml"

// LoadVersionSet reads a version set from the root folder of fsys
// (os.DirFS(dir) for a folder on disk, an embed.FS for schemas built into
// an operator): one schema per version, NAME.yaml, NAME.yml or NAME.json
// (read by convert.ReadSchema, so a v1beta1 params.yaml works too, and
// NAME.json must be JSON), ordered by versions.yaml when the folder has
// one, else by version order of the names (see below).
//
// The options that apply are those of NewVersionSet. Errors about one
// file of the folder name it (schema.ErrorIn: "v2.yaml: ..."); a folder
// that cannot be read, or whose files do not make a set, gives a
// *schema.Error of kind schema.KindIO.
//
// versions.yaml is a list, oldest first, of names or of objects
// {name: NAME, preview: true|false, downgrade: true|false}; every
// listed version needs its schema file and every schema file must be
// listed. Without it the names are ordered as Kubernetes orders API
// versions (v1alpha1 < v1alpha2 < v1beta1 < v1 < v2) or as semantic
// versions (0.1.0 < 0.2.0 < 1.0.0-rc.1 < 1.0.0), vN counting as N.0.0.
func LoadVersionSet(fsys fs.FS, opts ...Option) (*VersionSet, error) {
	if fsys == nil {
		return nil, schema.NewError(schema.KindUsage, "", "migrate: LoadVersionSet needs a file system")
	}
	o, err := collect(opts, forSet, "LoadVersionSet")
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, schema.NewError(schema.KindIO, "", "%w", err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.IsDir() || e.Name() == versionsFile || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		ext := path.Ext(e.Name())
		if ext != ".yaml" && ext != ".yml" && ext != ".json" {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ext)
		if prev, dup := files[name]; dup {
			return nil, schema.NewError(schema.KindIO, "", "version %s has two schema files, %s and %s", name, prev, e.Name())
		}
		files[name] = e.Name()
	}
	var versions []Version
	order, err := fileread.ReadFS(fsys, versionsFile, fileread.Limit, false)
	switch {
	case err == nil:
		versions, err = parseVersionsFile(order)
		if err != nil {
			return nil, schema.ErrorIn(versionsFile, err)
		}
		listed := map[string]bool{}
		for _, v := range versions {
			if _, ok := files[v.Name]; !ok {
				return nil, schema.NewError(schema.KindIO, "", "version %s has no schema file (%s.yaml or %s.json)", v.Name, v.Name, v.Name)
			}
			listed[v.Name] = true
		}
		for name := range files {
			if !listed[name] {
				return nil, schema.NewError(schema.KindIO, "", "%s is not listed in %s", files[name], versionsFile)
			}
		}
	case errors.Is(err, fs.ErrNotExist):
		keys := map[string]versionKey{}
		for name := range files {
			k, err := parseVersionKey(name)
			if err != nil {
				return nil, schema.NewError(schema.KindIO, "", "%v", err)
			}
			keys[name] = k
			versions = append(versions, Version{Name: name})
		}
		sort.Slice(versions, func(i, j int) bool {
			c := compareVersionKeys(keys[versions[i].Name], keys[versions[j].Name])
			if c != 0 {
				return c < 0
			}
			return versions[i].Name < versions[j].Name
		})
	default:
		return nil, schema.NewError(schema.KindIO, "", "%w", err)
	}
	if len(versions) == 0 {
		return nil, schema.NewError(schema.KindIO, "", "no schema files (NAME.yaml or NAME.json)")
	}
	for i := range versions {
		s, err := convert.ReadSchema(fsys, files[versions[i].Name])
		if err != nil {
			return nil, schema.ErrorIn(files[versions[i].Name], err)
		}
		versions[i].Schema = s
	}
	return newVersionSet(versions, o)
}

// parseVersionsFile reads versions.yaml from its YAML nodes, so that a
// name such as 1.10 stays the text it is.
func parseVersionsFile(data []byte) ([]Version, error) {
	n, err := document.ParseNode(data)
	if err != nil {
		return nil, problem.Public(err, schema.ErrorsOf)
	}
	if n == nil || n.Kind == 0 {
		return nil, schema.NewError(schema.KindSyntax, "", "empty: it needs a list of version names, oldest first")
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.SequenceNode {
		return nil, versionsError("", n.Line, "a list of version names, oldest first, is needed")
	}
	var out []Version
	for i, item := range n.Content {
		at := pointer.AppendIndex("", i)
		switch item.Kind {
		case yaml.ScalarNode:
			if item.Value == "" {
				return nil, versionsError(at, item.Line, "empty version name")
			}
			out = append(out, Version{Name: item.Value})
		case yaml.MappingNode:
			var v Version
			downgrade := true
			for k := 0; k+1 < len(item.Content); k += 2 {
				key, val := item.Content[k], item.Content[k+1]
				if val.Kind != yaml.ScalarNode {
					return nil, versionsError(pointer.Append(at, key.Value), val.Line, "%s must be a scalar", key.Value)
				}
				switch key.Value {
				case "name":
					v.Name = val.Value
				case "preview", "downgrade":
					b, ok := document.Bool(val.Value)
					if !ok {
						return nil, versionsError(pointer.Append(at, key.Value), val.Line, "%s must be true or false, not %q", key.Value, val.Value)
					}
					if key.Value == "preview" {
						v.Preview = b
					} else {
						downgrade = b
					}
				default:
					return nil, versionsError(pointer.Append(at, key.Value), key.Line, "unknown field %q (name, preview, downgrade)", key.Value)
				}
			}
			if v.Name == "" {
				return nil, versionsError(at, item.Line, "a version needs a name")
			}
			v.NoDowngrade = !downgrade
			out = append(out, v)
		default:
			return nil, versionsError(at, item.Line, "a version is a name or {name, preview, downgrade}")
		}
	}
	return out, nil
}

// versionsError is a fault of versions.yaml at ptr, on line.
func versionsError(ptr string, line int, format string, a ...any) *schema.Error {
	e := schema.NewError(schema.KindSchema, ptr, format, a...)
	e.Line = line
	return e
}

// foldNames returns newer with an oldName added to each plain property
// (reached through properties only) that has none, is absent from older
// at its place, and matches exactly one property of older there when
// case is ignored.
func foldNames(older, newer *schema.Schema) (*schema.Schema, []string, error) {
	doc := value.DeepCopy(newer.Document())
	var notes []string
	var walk func(nd, od any, newPtr, oldPtr string)
	walk = func(nd, od any, newPtr, oldPtr string) {
		nm, _ := nd.(map[string]any)
		om, _ := od.(map[string]any)
		if nm == nil || om == nil {
			return
		}
		nprops, _ := nm["properties"].(map[string]any)
		oprops, _ := om["properties"].(map[string]any)
		if nprops == nil || oprops == nil {
			return
		}
		for _, name := range migSortedKeys(nprops) {
			sub, _ := nprops[name].(map[string]any)
			if sub == nil {
				continue
			}
			if _, has := sub["oldName"]; has {
				continue
			}
			if o, ok := oprops[name]; ok {
				walk(sub, o, pointer.Append(newPtr, name), pointer.Append(oldPtr, name))
				continue
			}
			match := ""
			count := 0
			for oname := range oprops {
				if strings.EqualFold(oname, name) {
					match, count = oname, count+1
				}
			}
			if count != 1 {
				continue
			}
			op := pointer.Append(oldPtr, match)
			sub["oldName"] = op
			notes = append(notes, fmt.Sprintf("%s takes %s (names matched ignoring case)", pointer.Append(newPtr, name), op))
			walk(sub, oprops[match], pointer.Append(newPtr, name), op)
		}
	}
	walk(doc, older.Document(), "", "")
	if len(notes) == 0 {
		return newer, nil, nil
	}
	s, err := schema.FromValue(doc)
	if err != nil {
		return nil, nil, err
	}
	return s, notes, nil
}
