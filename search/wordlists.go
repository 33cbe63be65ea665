package search

import (
	"bufio"
	"embed"
	"fmt"
	"strings"
)

// wordFiles are the word lists kept as data, each with its source in its
// comments.
//
//go:embed words/*.txt
var wordFiles embed.FS

// wordSections reads words/name: one word a line, "#" comments, and
// "[section]" lines opening named lists. It panics on a file the package
// does not carry: the lists are part of the build.
func wordSections(name string) map[string]map[string]bool {
	data, err := wordFiles.ReadFile("words/" + name)
	if err != nil {
		panic(fmt.Sprintf("search: word list %s: %v", name, err))
	}
	out := make(map[string]map[string]bool)
	section := ""
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = strings.Trim(line, "[]")
		default:
			if out[section] == nil {
				out[section] = make(map[string]bool)
			}
			out[section][strings.ToLower(line)] = true
		}
	}
	return out
}
