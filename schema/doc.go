// Package schema turns one raw MCP tool, as a server's tools/list sends it,
// into an exact [Record] (the source of truth for execution) and a lossy
// [Card] (the reading aid a model chooses from), a catalog at a time with
// [NormalizeCatalog]. It enforces the catalog limits, derives safe input
// aliases, cleans untrusted provider prose ([Sanitize]) and validates call
// arguments against the exact JSON Schema ([Validator]).
//
// The package touches neither SQLite nor the network.
//
// # Decisions where the design is silent
//
// Refusals. A tool that breaks a limit or cannot be called safely is refused
// alone with a [*RefusalError] whose Reason is one short sentence:
//   - a tool definition that is not valid UTF-8 is refused, not repaired: the
//     record must keep what the server sent, and a repaired schema is not it;
//   - an object that names a member twice (anywhere in the tool) is refused:
//     JSON parsers disagree on which duplicate counts, so the bridge and the
//     provider could read different schemas;
//   - an input schema over [MaxSchemaBytes] (measured on its canonical JSON)
//     or nesting deeper than [MaxSchemaDepth] containers (the root object is
//     depth 1) is refused; so is a whole tool object deeper than ten times that;
//   - an input schema that is false, not an object or boolean, or whose root
//     type cannot be "object" is refused: MCP arguments are always an object;
//   - an input schema the validator cannot compile (a bad pattern, a $ref that
//     names nothing, a remote $ref: remote references are never fetched) is
//     refused at index time, because no call to it could ever be validated.
//
// Lenient cases. A missing or null inputSchema stands for {"type":"object"}.
// The boolean schema true accepts any object and puts no inputs on the card.
// A schema without "type" is read as an object. $ref cycles are followed at
// most 16 links and nested types 4 levels deep, so no schema recurses
// forever. Properties found in top-level anyOf/oneOf branches are shown as
// optional inputs; when a branch requires inputs the card is incomplete.
//
// Aliases. A top-level provider property name stays when it matches
// ^[A-Za-z_][A-Za-z0-9_]{0,63}$ and no sibling (counting allOf and anyOf/oneOf
// branches) has the same name case-insensitively; every other name becomes
// param_01, param_02... assigned in bytewise order of the provider names,
// skipping numbers that would equal a real name case-insensitively. Nested
// names are never aliased. [Record.ProviderArgs] passes unknown names
// through for validation to judge, but rejects a name that matches a known
// one only case-insensitively ({"FIELD":1} never reaches a provider as field).
//
// Prose. Descriptions are cut to [MaxProseChars] before anything else, then
// [Sanitize]d to the card budget (280 characters of summary, 80 per input);
// what is left out is counted in [Record.ProseCut]. A description made only
// of lures gives a summary built from the tool name ("create ticket"). In a
// catalog of four tools or more, a sentence that at least half its tools
// (and three or more) repeat word for word is about the server, not the
// tool: [NormalizeCatalog] leaves it out of the summaries, unless it is all
// a tool says, and [Tool.Described] hands it to the search text apart. So
// is an aside in parentheses that ends sentences of as many tools ("(Uses
// default AccountSid: AC00… if not provided)"), from the summaries only.
//
// Cards. Inputs are listed required first, then optional, each in schema
// order, at most [MaxCardInputs]. A card is complete unless a required input
// is not on it, a required input needs nested required fields, or required
// inputs depend on an anyOf/oneOf alternative; the note says which. A card
// over [MaxCardBytes] sheds input descriptions, enums, summary length and
// finally inputs (optional ones last in the list go first) until it fits.
//
// Validation. [NewValidator] compiles the exact schema on a compiler of its
// own with every loader removed. Forms of older drafts (draft-04's boolean
// exclusiveMinimum, tuple items, dependencies, id...) are rewritten into
// their 2020-12 equivalents in the copy it compiles, never in the record;
// only a form with no equivalent ([ErrInexpressible]) refuses the tool.
// Before any decoding, [CheckArgBounds] refuses arguments with an object
// past [MaxArgMembers] members or an array past [MaxArgItems] items.
// [Validator.Check] decodes arguments with
// exact numbers into maps (names are matched exactly), maps aliases back,
// and reports missing required inputs (those the schema's properties, allOf
// members, items and local $refs require, top level and nested) apart from
// other errors, so that the bridge can ask for input instead of rejecting
// the call. Requirements that hang on anyOf/oneOf/if branches surface as
// errors, since which branch applies is not known. Error paths are JSON
// Pointers in card names; messages are sanitized like every other text.
//
// Catalogs. [NormalizeCatalog] reads tools in listing order: tools past the
// 5,000th, and every tool from the one whose bytes take the catalog past
// 16 MiB, are refused with that reason; a second tool with a name already
// seen is refused (a client calls tools by name, so only the first could be
// reached).
package schema
