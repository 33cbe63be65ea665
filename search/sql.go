package search

import (
	"maps"
	"strings"
)

// SQL in an intent ("run SELECT count(*) FROM users on the prod
// project") is a value: it says SQL is to run, and its keywords and names
// are no topic. ("query" is left out of what it implies: tools named for
// querying logs or metrics outranked the one that runs SQL.) A statement
// opens with a keyword written in capitals (SELECT, INSERT, UPDATE,
// DELETE, CREATE...), or with "select" and a star in any case, and has
// one of its clauses (FROM, INTO, SET, TABLE, WHERE...) within sqlReach
// fields; it runs on while each field is a keyword, an operator, or the
// name or expression a keyword, operator or comma leads ("users",
// "count(*)", "'open'"), and ends at ";".

// sqlReach bounds how far after its opening keyword a statement's first
// clause keyword is looked for.
const sqlReach = 8

var (
	sqlOpeners = setOf("SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP", "TRUNCATE",
		"EXPLAIN", "WITH", "UPSERT", "MERGE", "REPLACE")
	sqlClauses = setOf("FROM", "INTO", "SET", "TABLE", "WHERE", "VALUES", "VIEW", "INDEX", "DATABASE",
		"SCHEMA", "COLUMN")
	// sqlKeywords are every keyword a statement runs on through: the
	// openers, the clauses and these.
	sqlKeywords = unionOf(sqlOpeners, sqlClauses, setOf("AND", "OR", "NOT", "NULL", "IS", "IN", "LIKE",
		"ILIKE", "BETWEEN", "LIMIT", "OFFSET", "ORDER", "GROUP", "BY", "HAVING", "DISTINCT", "ON", "AS",
		"ASC", "DESC", "JOIN", "INNER", "LEFT", "RIGHT", "OUTER", "FULL", "CROSS", "UNION", "ALL",
		"EXISTS", "CASE", "WHEN", "THEN", "ELSE", "END", "ADD", "PRIMARY", "KEY", "RETURNING", "IF",
		"CASCADE", "DEFAULT", "TRUE", "FALSE"))
	// sqlLower are the keywords a statement opened by "select *" may
	// write in lower case: those English rarely puts after a name.
	sqlLower     = setOf("FROM", "WHERE", "JOIN", "LIMIT", "ORDER", "GROUP", "BY", "OFFSET", "HAVING")
	sqlOperators = setOf("=", "<", ">", "<=", ">=", "<>", "!=", "+", "-", "*", "/", "||", "%")
)

// unionOf returns a set holding the members of every one of sets.
func unionOf(sets ...map[string]bool) map[string]bool {
	out := make(map[string]bool)
	for _, set := range sets {
		maps.Copy(out, set)
	}
	return out
}

// sqlHints are the words a statement implies.
var sqlHints = []string{"sql"}

// sqlSpan returns how many fields, from fields[i] on, an SQL statement
// spans, or 0 when none opens there, and the words of its names.
func sqlSpan(fields []string, i int) (n int, names []string) {
	_, tok, _ := trimToken(fields[i])
	lower := false // opened by "select *" in any case
	switch {
	case sqlOpeners[tok]:
	case strings.EqualFold(tok, "select") && i+1 < len(fields) && selectsAll(fields[i+1]):
		lower = true
	default:
		return 0, nil
	}
	keyword := func(tok string) bool {
		return sqlKeywords[tok] || lower && sqlLower[strings.ToUpper(tok)]
	}
	clause := false
	for j := i + 1; j < len(fields) && j <= i+sqlReach; j++ {
		_, t, _ := trimToken(fields[j])
		if sqlClauses[t] || lower && sqlLower[strings.ToUpper(t)] {
			clause = true
			break
		}
	}
	if !clause {
		return 0, nil
	}
	expect := true // a name or expression may come next
	j := i + 1
	for ; j < len(fields); j++ {
		f := fields[j]
		_, t, trail := trimToken(f)
		switch {
		case keyword(t), sqlOperators[f]:
			expect = true
		case t == "" || expect:
			expect = strings.HasSuffix(f, ",")
			names = append(names, words(t)...)
		default:
			return j - i, names
		}
		if strings.Contains(trail, ";") {
			return j - i + 1, names
		}
	}
	return j - i, names
}

// selectsAll reports whether the field after "select" is a star, or a
// count of all rows: "select * from", "select count(*) from".
func selectsAll(field string) bool {
	return strings.HasPrefix(strings.TrimLeft(field, "("), "*") || strings.Contains(strings.ToLower(field), "count(*)")
}
