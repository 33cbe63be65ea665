package output

import "unicode/utf8"

// EstimateTokens returns the estimated token count of s: its Unicode code
// points divided by four, rounded up. It is an estimate, never a tokenizer's
// count; bytes are the hard measure.
func EstimateTokens(s string) int {
	return int(CharsToTokens(int64(utf8.RuneCountInString(s))))
}

// CharsToTokens is [EstimateTokens] for a text of chars Unicode code points.
func CharsToTokens(chars int64) int64 { return (chars + 3) / 4 }
