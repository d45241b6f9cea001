// Package lint checks parameter schemas against published rules. Each rule
// is a value with an id, the set it belongs to, a one-line doc, a severity
// and a run function over the schema; rule sets are plain lists, so
// callers can add their own rules and sets.
//
// Three sets come with it, each returned by a function as a value of the
// caller's own (the package holds no state a caller can change, and no
// registry): Kudo() (KEP-33's trigger, immutable and oldName, and
// parameter hygiene), ClusterApp() (the Giant Swarm cluster-app values
// schema RFC, R1 to R18) and Structural() (would a kube-apiserver accept
// the schema as a CRD's openAPIV3Schema). Document lints any well-formed
// YAML or JSON document: what the JSON Schema engine refuses to compile
// becomes findings, and the rules that read only the document still run.
// Every finding points into the schema document with an RFC 6901 pointer,
// with its line and column.
//
// # Entry points
//
// To lint a schema document, call Document with one or more sets
// (Example); add rules of your own (ExampleSet):
//
//	findings, err := lint.Document(data, lint.Kudo(), lint.Structural())
//	for _, f := range findings {
//		fmt.Println(f.Pointer, f.Severity, f.Rule, f.Message)
//	}
//
// Run does the same for a schema already parsed. A set's Name is the name
// paramctl's --rules takes. A set is a plain value: to turn a rule off,
// leave it out of the set's Rules; to accept product names in titles,
// pass them to ClusterApp (ExampleClusterApp).
//
// # Rule sets
//
//   - Kudo checks KEP-33's keywords: conflicting triggers, trigger,
//     immutable and oldName where they have no effect, an old name claimed
//     twice, defaults that fail their own schema or enum, required
//     properties that can never be given, misspelt keywords (`ref` for
//     `$ref`).
//   - ClusterApp follows the cluster-app values schema RFC to the letter:
//     every MUST an error, every SHOULD a warning (paramctl lint
//     --list-rules says which requirements a program cannot check).
//   - Structural answers one question: would a current kube-apiserver
//     accept the schema as a CRD's openAPIV3Schema under strict field
//     validation? Its reference is the apiserver's own CRD schema
//     validation: an error exactly where the apiserver refuses, pointing
//     where it points, with its message; advice where it accepts is a
//     warning at most. CEL rules (x-kubernetes-validations) are left
//     uncompiled: an info finding.
//
// No finding quotes a secret: a default, enum member, const or example
// of a node marked writeOnly: true or format: password (or of a node
// below one, or holding one) says (value hidden) instead, whatever the
// rule and the output format; the run hides them where its findings
// leave it, so every rule is covered (see package schema, "Secrets in
// messages").
//
// Findings come in one order on every run: by file (for a package or a
// chart), by place in the document (line, then column, where known), then
// pointer, then rule. Linting is fast enough to run on save: a 270 KiB cluster-app
// values schema with ~1,600 properties is linted with the kudo and
// cluster-app sets in 62–64 ms on an idle 2-core machine
// (BenchmarkLintLarge), 56–58 ms of which is the JSON Schema engine
// compiling it (BenchmarkEngineCompileLarge in package schema).
//
// # What can be linted
//
// Document takes a schema, a v1beta1 params file (linted as the schema it
// converts to; a parameter that does not convert is a kudo-params finding;
// ExampleDocument_v1beta1) or a CustomResourceDefinition manifest (as CRD:
// each version's openAPIV3Schema, findings pointing into the manifest and
// naming the version; ExampleDocument_crd). Findings carry the line and
// column of their pointer. A KUDO operator.yaml is refused with ErrOperatorFile: it
// is linted with its folder.
//
// A KUDO package folder (operator.yaml, params.yaml, templates/) is data:
// ReadPackage reads a Package from any fs.FS, and Package.Lint runs the sets on params.yaml
// and, with the Kudo set, checks the parameters against the rest of the
// package, as KUDO's `kubectl kudo package verify` does and more
// (ExampleReadPackage, ExamplePackage_Lint):
//
//   - kudo-package-plan (error): a trigger naming a plan operator.yaml
//     does not declare;
//   - kudo-package-name-case (error): two names equal but for case;
//   - kudo-package-name-reachable (error): a name a template cannot write
//     as .Params.NAME;
//   - kudo-package-unused (warning): a parameter no template and no Toggle
//     task uses (one with a trigger may exist only to trigger its plan);
//   - kudo-package-undefined (error): a template or Toggle task using a
//     parameter that does not exist; with a v1beta2 schema, nested
//     references (.Params.backup.enabled, elements of range) are checked
//     against the schema's tree;
//   - kudo-package-template (error): a template that does not parse.
//
// References are counted the ways templates make them: .Params.X,
// $.Params.X, index .Params "X" "Y", inside range and with, through
// variables and in pipelines; templates are parsed with text/template/parse,
// never matched with patterns, and a template that uses .Params as a whole
// (toYaml .Params) counts as using every parameter. Every finding about a
// parameter names it (a nested one by its path), and findings in a
// template name the file and the line. The schema of a folder alone is
// convert.ReadSchema(fsys, dir).
//
// A Helm chart (a folder holding Chart.yaml) is data too: ReadChart reads
// a Chart from any fs.FS, and Chart.Lint runs the sets on its
// values.schema.json and validates its values.yaml against it (rule
// chart-values), with the chart's extra values files layered over it first
// as `helm lint -f` does (maps merge key by key, null removes a key, and
// the error lands in the file that wrote the value; ExampleChart_Lint).
// Values are typed by
// the schema; only a plain null (or ~, or nothing) is null whatever the
// node, as Helm reads it. A chart without values.schema.json gets one info
// finding.
//
// # What lint leaves to its caller
//
// What a command-line tool adds around the findings is not the package's:
// paramctl's configuration file (rules, disable, ignore, words, severity),
// its baseline, its SARIF log and how it names files are paramctl's own
// (see its manual, "Silencing findings"). Everything they need is here as
// values: a Finding's Rule, Pointer, File and Line; the rules of the sets
// a run used and Chart.Rules for the rules a chart adds.
package lint
