package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// applicationID marks a SQLite file as a capbridge catalog ("capb").
const applicationID = 0x63617062

// migrations[i] takes the schema from version i to i+1. Append only: a
// released migration never changes.
var migrations = []string{
	// 1: the catalog, its search tables and telemetry.
	`
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT;

CREATE TABLE servers (
	name        TEXT PRIMARY KEY,
	fingerprint TEXT NOT NULL DEFAULT '',
	state       TEXT NOT NULL DEFAULT '',
	last_listed INTEGER,                  -- Unix milliseconds; NULL: never listed
	last_error  TEXT NOT NULL DEFAULT '',
	bytes       INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE tools (
	id              INTEGER PRIMARY KEY,
	server          TEXT NOT NULL REFERENCES servers(name) ON DELETE CASCADE,
	name            TEXT NOT NULL,
	hash            TEXT NOT NULL DEFAULT '',
	record          BLOB,
	card            BLOB,
	refusal         TEXT NOT NULL DEFAULT '', -- non-empty: kept, never searched
	content_hash    TEXT NOT NULL DEFAULT '', -- SHA-256 of the Doc: embedding cache key
	doc_name        TEXT NOT NULL DEFAULT '',
	doc_desc        TEXT NOT NULL DEFAULT '',
	doc_params      TEXT NOT NULL DEFAULT '',
	doc_param_descs TEXT NOT NULL DEFAULT '',
	doc_enums       TEXT NOT NULL DEFAULT '',
	UNIQUE (server, name)
) STRICT;

-- Search rows exist only for tools with an empty refusal; rowid = tools.id.
-- Contentless: the text lives in tools.doc_*.
CREATE VIRTUAL TABLE tool_words USING fts5(
	name, desc, params, param_descs, enums,
	tokenize = 'porter unicode61 remove_diacritics 2',
	content = '', contentless_delete = 1
);
CREATE VIRTUAL TABLE tool_trigrams USING fts5(
	text,
	tokenize = 'trigram remove_diacritics 1',
	content = '', contentless_delete = 1
);

-- The catalog's vocabulary for typo correction: each lowercased word of
-- the searchable tools' docs and how many tools hold it.
CREATE TABLE terms (
	id   INTEGER PRIMARY KEY,
	term TEXT NOT NULL UNIQUE,
	docs INTEGER NOT NULL
) STRICT;
CREATE VIRTUAL TABLE terms_trigrams USING fts5(
	term,
	tokenize = 'trigram',
	content = '', contentless_delete = 1
);

CREATE TABLE embeddings (
	model        TEXT NOT NULL,
	content_hash TEXT NOT NULL,
	dim          INTEGER NOT NULL,
	vec          BLOB NOT NULL,  -- little-endian float32s
	PRIMARY KEY (model, content_hash)
) STRICT, WITHOUT ROWID;

CREATE TABLE calls (
	id         INTEGER PRIMARY KEY,
	at         INTEGER NOT NULL, -- Unix milliseconds
	server     TEXT NOT NULL,
	tool       TEXT NOT NULL,
	bytes_in   INTEGER NOT NULL,
	bytes_out  INTEGER NOT NULL,
	tokens_in  INTEGER NOT NULL,
	tokens_out INTEGER NOT NULL,
	pages      INTEGER NOT NULL,
	latency_ms INTEGER NOT NULL,
	outcome    TEXT NOT NULL
) STRICT;
CREATE INDEX calls_by_tool ON calls (server, tool);
`,
	// 2: a digest of each server's catalog as listed, so that a listing
	// that changed nothing is recognized without normalizing it again.
	`
ALTER TABLE servers ADD COLUMN listing TEXT NOT NULL DEFAULT ''; -- '' when unknown
`,
	// 3: a tool's server and name by id without reading its row: the
	// search legs order ties by them for every match, and reading the
	// rows (records and cards beside them) filled serve's page cache.
	`
CREATE INDEX tools_key ON tools (id, server, name);
`,
	// 4: which of a server's tools are refused, without reading their
	// rows: counting searchable tools (serve's start, the search's catalog
	// size, an unchanged listing) read every record and card, 61 of the
	// 75 MB of 5,000 tools, and serve's memory map kept all it read.
	`
CREATE INDEX tools_refused ON tools (server, refusal, name);
`,
	// 5: the word table keeps no row lengths (columnsize=0), so BM25 reads
	// none: every matched row cost a lookup of its length, a third of the
	// words leg's time over 5,000 tools. A pad column of padTokens words
	// in every row keeps the average length high, so the score still
	// grows with a word's count however short a catalog's texts are. Such
	// a table deletes a row with FTS5's 'delete' command and the text it
	// was indexed with (tools.doc_*). The length is kept beside each
	// tool's key instead (tools.doc_len, in characters, NULL for a
	// refused tool; the writes in index.go compute it alike), and the
	// search weighs only the candidates it keeps by it (search's
	// LengthNorm). A generated column would not do: SQLite reads the row
	// to get its value even from an index.
	`
DROP TABLE tool_words;
CREATE VIRTUAL TABLE tool_words USING fts5(
	name, desc, params, param_descs, enums, pad,
	tokenize = 'porter unicode61 remove_diacritics 2',
	content = '', columnsize = 0
);
INSERT INTO tool_words (rowid, name, desc, params, param_descs, enums, pad)
	SELECT id, doc_name, doc_desc, doc_params, doc_param_descs, doc_enums, '` + padText + `'
	FROM tools WHERE refusal = '';
INSERT INTO tool_words (tool_words) VALUES ('optimize');
ALTER TABLE tools ADD COLUMN doc_len INTEGER; -- NULL for a refused tool
UPDATE tools SET doc_len = CASE WHEN refusal = '' THEN
	length(doc_name) + length(doc_desc) + length(doc_params) + length(doc_param_descs) + length(doc_enums)
END;
DROP INDEX tools_key;
CREATE INDEX tools_key ON tools (id, server, name, doc_len);
`,
	// 6: each tool's pin: the definition first stored (or last accepted
	// or approved), the last change to it, and whether the tool is held
	// until the user approves that change. Kept apart from tools, whose
	// rows follow the listing: a tool that leaves a listing and comes
	// back changed is compared with its pin all the same. The store
	// treats definitions as opaque bytes and changed as a list of names.
	`
CREATE TABLE pins (
	server      TEXT NOT NULL REFERENCES servers(name) ON DELETE CASCADE,
	tool        TEXT NOT NULL,
	hash        TEXT NOT NULL,              -- of definition
	definition  BLOB NOT NULL,              -- the pinned definition
	listed_hash TEXT NOT NULL DEFAULT '',   -- '' when the listing is the pin
	listed      BLOB,                       -- the definition listed, when it differs from the pin
	previous    BLOB,                       -- the definition before the last change
	changed     TEXT NOT NULL DEFAULT '[]', -- JSON array: what the last change changed
	changed_at  INTEGER,                    -- Unix milliseconds; NULL: never changed
	held        INTEGER NOT NULL DEFAULT 0,
	reason      TEXT NOT NULL DEFAULT '',   -- why it is held
	approved_at INTEGER,                    -- Unix milliseconds; NULL: never approved
	PRIMARY KEY (server, tool)
) STRICT;
CREATE INDEX pins_held ON pins (server, tool) WHERE held <> 0;
`,
	// 7: the word table and the vocabulary hold the two- and three-letter
	// pieces of text in scripts written without spaces (see
	// SplitScripts), so that a Chinese, Japanese, Korean or Thai intent
	// finds a tool described in its language. The search rows and the
	// vocabulary are emptied here and written again from the tools' texts
	// by reindex, the Go half of this migration.
	`
INSERT INTO tool_words (tool_words) VALUES ('delete-all');
INSERT INTO tool_trigrams (tool_trigrams) VALUES ('delete-all');
DELETE FROM terms;
INSERT INTO terms_trigrams (terms_trigrams) VALUES ('delete-all');
`,
	// 8: how many secret values the output stage redacted from a call's
	// answer, for capbridge stats.
	`
ALTER TABLE calls ADD COLUMN redactions INTEGER NOT NULL DEFAULT 0;
`,
	// 9: the word table's tokens (stem.Words, as FTS5 stores them) and,
	// for each, the tools holding it with a count per column, in one
	// blob (see encodePostings): the words leg scores its candidates from
	// these (see RankWords) rather than by FTS5's bm25, which read every
	// candidate's positions and cost a third of a search over 5,000
	// tools. The Go half, buildPostings, fills it from the tools' texts.
	`
CREATE TABLE word_postings (
	term     TEXT PRIMARY KEY,
	postings BLOB NOT NULL
) STRICT, WITHOUT ROWID;
`,
	// 10: typo correction reads the vocabulary into memory and finds the
	// words sharing a trigram there (search's vocabIndex): the
	// vocabulary's trigram table is read no more.
	`
DROP TABLE terms_trigrams;
`,
	// 11: how many passages of a call's answer the poisoning detector
	// flagged (bridge.results), for capbridge stats.
	`
ALTER TABLE calls ADD COLUMN flagged INTEGER NOT NULL DEFAULT 0;
`,
	// 12: when each pin was first written (Unix milliseconds), so that a
	// tool a server lists after its first pinning can be told from the
	// ones it started with (capbridge servers, the pin rule). Pins written
	// before this column have 0: they count as the server's first.
	`
ALTER TABLE pins ADD COLUMN pinned_at INTEGER NOT NULL DEFAULT 0;
`,
	// 13: what each server offers beside its tools: prompts, resources and
	// resource templates as listed (kind, and the name, uri or uriTemplate
	// that addresses one, exactly as the server gave it), the capabilities
	// it declared, and what listing them left out. Their pins live in pins
	// beside the tools' (see Feature.PinName).
	`
CREATE TABLE features (
	server     TEXT NOT NULL REFERENCES servers(name) ON DELETE CASCADE,
	kind       TEXT NOT NULL,  -- prompt, resource or template
	key        TEXT NOT NULL,  -- name, uri or uriTemplate as the server gave it
	hash       TEXT NOT NULL,  -- of definition
	definition BLOB NOT NULL,  -- the object as listed, canonical JSON
	PRIMARY KEY (server, kind, key)
) STRICT, WITHOUT ROWID;
ALTER TABLE servers ADD COLUMN capabilities BLOB;                     -- as the server declared them; NULL: not listed yet
ALTER TABLE servers ADD COLUMN features_note TEXT NOT NULL DEFAULT ''; -- what listing prompts and resources left out
`,
	// 14: which tool the model ran after a discovery, for which intent
	// (its words as search normalizes them), with the tool's definition
	// hash and how much the run says (see Learned). Kept on this machine
	// only, bounded by MaxLearned rows, read by the search to lift a tool
	// chosen for a similar intent before.
	`
CREATE TABLE learned (
	id     INTEGER PRIMARY KEY,
	at     INTEGER NOT NULL, -- Unix milliseconds
	words  TEXT NOT NULL,    -- the intent's words, space-separated
	server TEXT NOT NULL,
	tool   TEXT NOT NULL,
	hash   TEXT NOT NULL,    -- the tool's definition hash when its card was shown
	weight REAL NOT NULL     -- the evidence, in (0, 1]
) STRICT;
CREATE INDEX learned_by_tool ON learned (server, tool);
`,
	// 15: the SHA-256 of each tool's card as the store wrote it, so that
	// a card changed outside the store (another process editing the file)
	// can be told from the one written (see Tool.CardSum). The Go half,
	// sumCards, fills it for the cards stored before.
	`
ALTER TABLE tools ADD COLUMN card_sum TEXT NOT NULL DEFAULT '';
`,
	// 16: the digest of a server's last listing of prompts, resources and
	// templates as sent (see FeatureListing.Digest): a listing that has
	// not changed is not normalized nor stored again.
	`
ALTER TABLE servers ADD COLUMN features_listing TEXT NOT NULL DEFAULT '';
`,
}

// migrationCode[v], when set, runs after migrations[v-1] in the same
// transaction: the part of migration v that SQL alone cannot do. Append
// only, as migrations.
var migrationCode = map[int]func(context.Context, *sql.Tx) error{
	7:  reindex,
	9:  buildPostings,
	15: sumCards,
}

// sumCards writes the card_sum of every stored card (migration 15).
func sumCards(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, card FROM tools WHERE card IS NOT NULL")
	if err != nil {
		return fmt.Errorf("reading cards: %w", err)
	}
	sums := map[int64]string{}
	for rows.Next() {
		var id int64
		var card []byte
		if err := rows.Scan(&id, &card); err != nil {
			rows.Close()
			return fmt.Errorf("reading cards: %w", err)
		}
		sums[id] = CardSum(card)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading cards: %w", err)
	}
	for id, sum := range sums {
		if _, err := tx.ExecContext(ctx, "UPDATE tools SET card_sum = ? WHERE id = ?", sum, id); err != nil {
			return fmt.Errorf("writing card sums: %w", err)
		}
	}
	return nil
}

// toolText is a searchable tool's id and stored texts.
type toolText struct {
	id  int64
	doc Doc
}

// searchableTexts reads every searchable tool's texts, by id.
func searchableTexts(ctx context.Context, tx *sql.Tx) ([]toolText, error) {
	rows, err := tx.QueryContext(ctx, `
SELECT id, doc_name, doc_desc, doc_params, doc_param_descs, doc_enums FROM tools WHERE refusal = '' ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("reading tool texts: %w", err)
	}
	defer rows.Close()
	var all []toolText
	for rows.Next() {
		var r toolText
		if err := rows.Scan(&r.id, &r.doc.Name, &r.doc.Desc, &r.doc.Params, &r.doc.ParamDescs, &r.doc.Enums); err != nil {
			return nil, fmt.Errorf("reading tool texts: %w", err)
		}
		all = append(all, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading tool texts: %w", err)
	}
	return all, nil
}

// reindex writes the search rows and the vocabulary of every searchable
// tool again from its stored texts, as ReplaceCatalog writes them.
func reindex(ctx context.Context, tx *sql.Tx) error {
	all, err := searchableTexts(ctx, tx)
	if err != nil {
		return err
	}
	w, err := newIndexWriter(ctx, tx)
	if err != nil {
		return err
	}
	defer w.close()
	for _, r := range all {
		if err := w.index(ctx, r.id, r.doc); err != nil {
			return err
		}
	}
	return w.finish(ctx)
}

// padText fills the word table's pad column (migration 5): padTokens
// copies of a word no column filter of a search includes.
var padText = strings.TrimSpace(strings.Repeat("capbridgepad ", padTokens))

// padTokens is how many words pad each word row. With BM25's b = 0.75
// and the six columns' lengths unknown (FTS5 counts each as -1), a term's
// saturation stays positive while the average row is over 18 words long.
const padTokens = 60

// schemaVersion is the version this build writes.
var schemaVersion = len(migrations)

// migrate brings the schema up to schemaVersion in one write transaction,
// checking the file again under the lock: another process may have
// migrated it, or written something else, since probe looked.
func (s *Store) migrate(ctx context.Context) error {
	return s.write(ctx, "migrating catalog "+s.path, func(tx *sql.Tx) error {
		var appID, version, objects int
		err := tx.QueryRowContext(ctx, "SELECT (SELECT application_id FROM pragma_application_id),"+
			" (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_schema)").
			Scan(&appID, &version, &objects)
		if err != nil {
			return err
		}
		if _, err := check(s.path, appID, version, objects); err != nil {
			return err
		}
		for v := version; v < schemaVersion; v++ {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return fmt.Errorf("schema version %d: %w", v+1, err)
			}
			if code := migrationCode[v+1]; code != nil {
				if err := code(ctx, tx); err != nil {
					return fmt.Errorf("schema version %d: %w", v+1, err)
				}
			}
			s.logger.Debug("migrated", "path", s.path, "version", v+1)
		}
		_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d",
			applicationID, schemaVersion))
		return err
	})
}
