package main

// paramctl lint -o sarif: the findings as one SARIF 2.1.0 log, for
// code-scanning UIs (GitHub, GitLab, IDEs).

import (
	"encoding/json"
	"io"
	"runtime/debug"
	"sort"

	"github.com/paramkit/paramkit/lint"
)

// toolVersion is paramkit's module version as the running program was
// built with it (SARIF's driver version): the main module's when paramkit is the main module (a
// build from a checkout says "(devel)"), else the required version.
func toolVersion() string {
	const module = "github.com/paramkit/paramkit"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	if bi.Main.Path == module && bi.Main.Version != "" {
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == module {
			if d.Replace != nil && d.Replace.Version != "" {
				return d.Replace.Version
			}
			return d.Version
		}
	}
	return "(devel)"
}

// SARIF 2.1.0, the parts code-scanning UIs read.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	DefaultConfiguration sarifConfig  `json:"defaultConfiguration"`
	Properties           sarifProps   `json:"properties"`
}

type sarifProps struct {
	Tags []string `json:"tags"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical  `json:"physicalLocation"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "note"
}

// writeSARIF writes reports as one SARIF 2.1.0 log, so that code-scanning
// UIs show the findings in the file. rules are the rules that ran; each
// becomes a reportingDescriptor. A finding's file, as every output names
// it (from the run's root), is its artifact URI; its JSON pointer its
// logical location; its Line and Column, when known, the region. The
// driver carries paramctl's version.
func writeSARIF(w io.Writer, rules []*lint.Rule, reports ...lintReport) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "paramkit",
			Version:        toolVersion(),
			InformationURI: "https://github.com/paramkit/paramkit",
			Rules:          []sarifRule{},
		}},
		Results: []sarifResult{},
	}
	index := map[string]int{}
	addRule := func(id, doc, set string, sev lint.Severity) int {
		if i, ok := index[id]; ok {
			return i
		}
		index[id] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: id, ShortDescription: sarifMessage{doc},
			DefaultConfiguration: sarifConfig{sarifLevel(sev)},
			Properties:           sarifProps{Tags: []string{set}},
		})
		return index[id]
	}
	sorted := make([]*lint.Rule, 0, len(rules))
	for _, r := range rules {
		if r != nil {
			sorted = append(sorted, r)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	for _, r := range sorted {
		addRule(r.ID, r.Doc, r.Set, r.Severity)
	}
	for _, rep := range reports {
		for _, f := range rep.Findings {
			i, ok := index[f.Rule]
			if !ok {
				i = addRule(f.Rule, f.Rule, "", f.Severity)
			}
			loc := sarifLocation{
				PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: f.File}},
				LogicalLocations: []sarifLogical{{FullyQualifiedName: f.Pointer, Kind: "member"}},
			}
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line, StartColumn: f.Column}
			}
			run.Results = append(run.Results, sarifResult{
				RuleID: f.Rule, RuleIndex: i, Level: sarifLevel(f.Severity),
				Message: sarifMessage{f.Message}, Locations: []sarifLocation{loc},
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}
