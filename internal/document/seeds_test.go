package document

import (
	"encoding/json"
	"os"
)

// loadSeeds reads a JSON list of documents, the seeds of a fuzz target.
func loadSeeds(path string) []string {
	var out []string
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		panic(err)
	}
	return out
}
