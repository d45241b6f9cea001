package paramkit_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeSnippetIsTheExample: the README's Go snippet is the body of
// Example_readme in example_test.go, character for character (less the
// body's one level of indentation), so that the first code a newcomer
// copies compiles against today's API and prints what its comments say.
func TestReadmeSnippetIsTheExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	blocks := fencedBlocks(string(readme), "go")
	require.Len(t, blocks, 1, "the README holds one Go snippet, the Example's body")

	body := exampleBody(t, "example_test.go", "Example_readme")
	assert.Equal(t, body, blocks[0], "README.md's Go snippet and Example_readme's body differ: change both")
}

// fencedBlocks returns the contents of the Markdown code blocks fenced
// with ```lang.
func fencedBlocks(doc, lang string) []string {
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.SplitAfter(doc, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		switch {
		case cur == nil && trimmed == "```"+lang:
			cur = &strings.Builder{}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line)
		}
	}
	return blocks
}

// exampleBody returns the statements of the function name in file as
// source text, each line with the body's indentation (one tab) removed.
func exampleBody(t *testing.T, file, name string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	require.NoError(t, err)
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != name {
			continue
		}
		start := fset.Position(fn.Body.Lbrace).Offset + 1
		end := fset.Position(fn.Body.Rbrace).Offset
		text := strings.TrimPrefix(string(src[start:end]), "\n")
		lines := strings.SplitAfter(text, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(l, "\t")
		}
		return strings.Join(lines, "")
	}
	t.Fatalf("%s has no function %s", file, name)
	return ""
}

// TestMarkdownLinksResolve: every relative link in the repository's
// Markdown files (outside testdata, whose files are fixtures) names a file
// or folder that exists, and a #fragment names a heading of the Markdown
// file it points into, as GitHub spells heading anchors.
func TestMarkdownLinksResolve(t *testing.T) {
	files := markdownFiles(t, ".")
	require.Contains(t, files, "README.md")
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		a := headingAnchors(string(data))
		anchors[path] = a
		return a
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for _, target := range relativeLinks(string(data)) {
			checked++
			path, fragment, _ := strings.Cut(target, "#")
			resolved := file
			if path != "" {
				resolved = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				if _, err := os.Stat(resolved); err != nil {
					t.Errorf("%s: link %q: %s does not exist", file, target, resolved)
					continue
				}
			}
			if fragment != "" && strings.HasSuffix(resolved, ".md") && !anchorsOf(resolved)[fragment] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", file, target, resolved, fragment)
			}
		}
	}
	assert.NotZero(t, checked, "no relative link found: the link parser is broken")
}

// markdownFiles lists the *.md files below root, outside testdata and
// hidden folders.
func markdownFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	return files
}

var (
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	scheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// relativeLinks returns the targets of the inline and reference links of
// a Markdown document, outside fenced code blocks and code spans, that
// name no scheme (http:, mailto:).
func relativeLinks(doc string) []string {
	text := withoutFencedBlocks(doc)
	text = codeSpan.ReplaceAllString(text, "code")
	var links []string
	for _, re := range []*regexp.Regexp{inlineLink, refLink} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if target := m[1]; !scheme.MatchString(target) {
				links = append(links, target)
			}
		}
	}
	return links
}

// withoutFencedBlocks blanks the lines of fenced code blocks.
func withoutFencedBlocks(doc string) string {
	var b strings.Builder
	fence := ""
	for _, line := range strings.SplitAfter(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
			b.WriteString("\n")
		case fence != "" && strings.HasPrefix(trimmed, fence):
			fence = ""
			b.WriteString("\n")
		case fence != "":
			b.WriteString("\n")
		default:
			b.WriteString(line)
		}
	}
	return b.String()
}

var (
	heading     = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
	headingLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown document: lower case, punctuation other than - and _ dropped,
// spaces as -, a repeated anchor numbered -1, -2, ….
func headingAnchors(doc string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(withoutFencedBlocks(doc), -1) {
		text := headingLink.ReplaceAllString(m[1], "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// TestMarkdownLinkParser: the link checker finds what it must and skips
// what is no link, so that TestMarkdownLinksResolve passing means something.
func TestMarkdownLinkParser(t *testing.T) {
	doc := "# Title\n\n## Migrating stored values (`oldName`)\n\n## paramctl — the contract\n\n## Title\n\n" +
		"See [the manual](examples/paramctl/README.md), [a\nsplit link](CONTRIBUTING.md#layout) and [`code`](action.yml \"title\").\n" +
		"[web](https://example.com) and [mail](mailto:a@b.c) are not relative; `[not](a.link)` is code.\n\n" +
		"```sh\n# a comment, no heading\n[not](a/link)\n```\n\n[ref]: docs/ref.md\n"
	assert.Equal(t, []string{"examples/paramctl/README.md", "CONTRIBUTING.md#layout", "action.yml", "docs/ref.md"}, relativeLinks(doc))
	assert.Equal(t, map[string]bool{
		"title": true, "migrating-stored-values-oldname": true, "paramctl--the-contract": true, "title-1": true,
	}, headingAnchors(doc))
}
