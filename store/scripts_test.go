package store

import (
	"context"
	"slices"
	"testing"
)

func TestSplitScripts(t *testing.T) {
	tests := []struct {
		text   string
		rest   string
		pieces []string
	}{
		{"get the weather", "get the weather", nil},
		{"查询天气", " ", []string{"查询", "询天", "天气", "查询天", "询天气"}},
		{"send 邮件 now", "send   now", []string{"邮件"}},
		{"天气をチェック", " ", []string{"天气", "气を", "をチ", "チェ", "ェッ", "ック", "天气を", "气をチ", "をチェ", "チェッ", "ェック"}},
		{"날씨를 알려줘", "   ", []string{"날씨", "씨를", "날씨를", "알려", "려줘", "알려줘"}},
		// Thai: the vowel and tone signs (marks) are left out of the pieces.
		{"ค้นหาไฟล์", " ", []string{"คน", "นห", "หา", "าไ", "ไฟ", "ฟล", "คนห", "นหา", "หาไ", "าไฟ", "ไฟล"}},
		{"查 x", "  x", []string{"查"}},
	}
	for _, tt := range tests {
		rest, pieces := SplitScripts(tt.text)
		if rest != tt.rest || !slices.Equal(pieces, tt.pieces) {
			t.Errorf("SplitScripts(%q) = %q, %q; want %q, %q", tt.text, rest, pieces, tt.rest, tt.pieces)
		}
	}
}

// TestMatchWordsPieces: a tool described in Chinese is found by a piece
// of its description, and its pieces are in the vocabulary.
func TestMatchWordsPieces(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustReplace(t, s, "cn", tool("get_weather", "查询指定城市的天气预报"), tool("send_mail", "发送电子邮件"))
	hits, err := s.MatchWords(ctx, `"天气"`, [5]float64{1, 1, 1, 1, 1}, 10)
	if err != nil || len(hits) != 1 || hits[0].Key != "cn\x00get_weather" {
		t.Errorf("MatchWords(天气) = %v, %v; want get_weather", hits, err)
	}
	docs, err := s.Terms(ctx, []string{"天气", "邮件", "天气预"})
	if err != nil || docs["天气"] != 1 || docs["邮件"] != 1 || docs["天气预"] != 1 {
		t.Errorf("Terms = %v, %v; want each piece held by one tool", docs, err)
	}
	mustReplace(t, s, "cn", tool("send_mail", "发送电子邮件"))
	checkIndex(t, s)
	checkIntegrity(t, s)
}

// TestMigrationSevenIndexesPieces opens a catalog whose word table and
// vocabulary were written before pieces (version 5, before pins too):
// migration 7 writes them again, and searches, deletes and the FTS5
// integrity check work.
func TestMigrationSevenIndexesPieces(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustReplace(t, s, "cn", tool("get_weather", "查询指定城市的天气预报"), tool("send_mail", "Send an email"))
	mustReplace(t, s, "big", refused("giant", "too big"))
	for _, q := range []string{
		"INSERT INTO tool_words (tool_words) VALUES ('delete-all')",
		`INSERT INTO tool_words (rowid, name, desc, params, param_descs, enums, pad)
			SELECT id, doc_name, doc_desc, doc_params, doc_param_descs, doc_enums, '` + padText + `'
			FROM tools WHERE refusal = ''`,
		"DELETE FROM terms WHERE length(term) < 3",
		"DROP TABLE features", // migration 13 adds it
		"ALTER TABLE servers DROP COLUMN capabilities",
		"ALTER TABLE servers DROP COLUMN features_note",
		"DROP TABLE learned",                               // migration 14 adds it
		"DROP TABLE pins",                                  // migration 6 adds it
		"ALTER TABLE servers DROP COLUMN features_listing", // migration 16 adds it
		"ALTER TABLE tools DROP COLUMN card_sum",           // migration 15 adds it
		"ALTER TABLE calls DROP COLUMN flagged",            // migration 11 adds it
		"CREATE VIRTUAL TABLE terms_trigrams USING fts5(term, tokenize = 'trigram', content = '', contentless_delete = 1)", // migration 10 drops it
		"DROP TABLE word_postings",                 // migration 9 adds it
		"ALTER TABLE calls DROP COLUMN redactions", // migration 8 adds it
		"PRAGMA user_version = 5",
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if hits, _ := s.MatchWords(ctx, `"天气"`, [5]float64{1, 1, 1, 1, 1}, 10); len(hits) != 0 {
		t.Fatalf("before migration 7 a piece matched: %v", hits)
	}
	s.Close()
	s, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hits, err := s.MatchWords(ctx, `"天气"`, [5]float64{1, 1, 1, 1, 1}, 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("after migration 7: hits %v, %v; want get_weather", hits, err)
	}
	if hits, _ := s.MatchWords(ctx, `"email"`, [5]float64{1, 1, 1, 1, 1}, 10); len(hits) != 1 {
		t.Errorf("after migration 7: email matches %v, want send_mail", hits)
	}
	checkIndex(t, s)
	mustReplace(t, s, "cn", tool("send_mail", "Send an email"))
	if hits, _ := s.MatchWords(ctx, `"天气"`, [5]float64{1, 1, 1, 1, 1}, 10); len(hits) != 0 {
		t.Errorf("a removed tool still matches: %v", hits)
	}
	checkIndex(t, s)
	checkIntegrity(t, s)
}
