package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestReferenceServersThroughTheBridge drives the npm reference servers, real
// node processes, through a real `capbridge serve` process.
func TestReferenceServersThroughTheBridge(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, map[string]serverEntry{
		"files":      npmUpstream(t, "filesystem", dir),
		"memory":     withEnv(npmUpstream(t, "memory"), "MEMORY_FILE_PATH", filepath.Join(dir, "memory.jsonl")),
		"everything": npmUpstream(t, "everything"),
	}, nil)
	cs := startServe(t, cfg, filepath.Join(t.TempDir(), "catalog.db"))

	t.Run("filesystem write and read back", func(t *testing.T) {
		path := filepath.Join(dir, "notes", "hello.txt")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		content := "first line\nsecond line with ünïcødé, tabs\tand \"quotes\"\n{\"looks\": \"like json\"}\n"
		write := discoverAction(t, cs, "write a file", "files", "write_file")
		runAction(t, cs, write["actionId"].(string), map[string]any{"path": path, "content": content})
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != content {
			t.Fatalf("file on disk:\n%q\nwant:\n%q", got, content)
		}
		read := discoverAction(t, cs, "read a text file", "files", "read_text_file")
		res := runAction(t, cs, read["actionId"].(string), map[string]any{"path": path})
		// The file's text passes through the output stage untouched: its
		// exact bytes are in the page (beside the shaped copy of the
		// server's structuredContent).
		if text := resultText(res); !strings.Contains(text, content) {
			t.Fatalf("read back through the bridge, the file's bytes are not in the result:\n%q\nwant within it:\n%q", text, content)
		}
	})

	t.Run("memory entities", func(t *testing.T) {
		create := discoverAction(t, cs, "create entities in the knowledge graph memory", "memory", "create_entities")
		runAction(t, cs, create["actionId"].(string), map[string]any{"entities": []any{
			map[string]any{"name": "Ada_Lovelace", "entityType": "person", "observations": []any{"wrote the first program"}},
		}})
		open := discoverAction(t, cs, "open nodes by name in the knowledge graph", "memory", "open_nodes")
		res := runAction(t, cs, open["actionId"].(string), map[string]any{"names": []any{"Ada_Lovelace"}})
		if text := resultText(res); !strings.Contains(text, "Ada_Lovelace") || !strings.Contains(text, "wrote the first program") {
			t.Fatalf("open_nodes through the bridge:\n%s", text)
		}
	})

	t.Run("everything structured content", func(t *testing.T) {
		c := discoverAction(t, cs, "get structured content weather", "everything", "get-structured-content")
		res := runAction(t, cs, c["actionId"].(string), map[string]any{"location": "Chicago"})
		text := resultText(res)
		for _, want := range []string{"temperature", "conditions", "humidity"} {
			if !strings.Contains(text, want) {
				t.Errorf("structured result lost %q:\n%s", want, text)
			}
		}
		if res.StructuredContent != nil {
			t.Errorf("structuredContent passed on beside the text: %v", res.StructuredContent)
		}
	})

	t.Run("everything image content", func(t *testing.T) {
		c := discoverAction(t, cs, "get a tiny image", "everything", "get-tiny-image")
		res := runAction(t, cs, c["actionId"].(string), map[string]any{})
		var img *mcp.ImageContent
		for _, content := range res.Content {
			if ic, ok := content.(*mcp.ImageContent); ok {
				img = ic
			}
		}
		if img == nil {
			t.Fatalf("no image content came through: %v", res.Content)
		}
		if img.MIMEType != "image/png" || len(img.Data) < 8 || string(img.Data[1:4]) != "PNG" {
			t.Fatalf("image %s, %d bytes, starts %q: not the PNG sent", img.MIMEType, len(img.Data), img.Data[:min(8, len(img.Data))])
		}
	})
}

func withEnv(u serverEntry, key, value string) serverEntry {
	if u.Env == nil {
		u.Env = map[string]string{}
	}
	u.Env[key] = value
	return u
}
