package main

// Pins the dependencies the packages are being written against, so that
// `go mod tidy` keeps their versions while the packages land. Removed once
// every one of them is imported where it is used.
import (
	_ "github.com/adrg/xdg"
	_ "github.com/kaptinlin/jsonschema"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "golang.org/x/sync/errgroup"
	_ "modernc.org/sqlite"
	_ "modernc.org/sqlite/vec"
)
