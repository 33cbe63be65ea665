package search

import "strings"

// manyRank multiplies the fused score of a tool whose name says it acts
// on many things at once (read_multiple_files, batch_create_objects,
// insert_many) when the intent asks for one: "read the whole log file
// big.log" is read_text_file's, though its sibling for many files shares
// every word. It ranks below the siblings for one, and stays findable.
const manyRank = 0.6

// manyWords are the name words of tools for many things, and the intent
// words that ask for many (words/many.txt).
var manyWords = wordSections("many.txt")

// forManyUnasked reports whether a tool with name words nameWords acts on
// many things while the intent asks for one: it holds no word asking for
// many (words/many.txt), no plural of a word the catalog holds (docs:
// "files", "pods"), and fewer than two values (paths, file names,
// addresses: see valueWords).
func forManyUnasked(nameWords []string, intent string, docs map[string]int) bool {
	many := false
	for _, w := range nameWords {
		if manyWords["name"][w] {
			many = true
			break
		}
	}
	if !many {
		return false
	}
	for _, w := range words(intent) {
		if manyWords["intent"][w] {
			return false
		}
		for _, sg := range singulars(w) {
			if sg != w && docs[sg] > 0 && docs[w] > 0 {
				return false
			}
		}
	}
	values := 0
	for _, f := range strings.Fields(intent) {
		f = strings.Trim(f, `.,;:!?()"'`)
		if strings.ContainsAny(f, `/\@`) || strings.Contains(f, ".") {
			values++
		}
	}
	return values < 2
}
