package main

import (
	"context"
	"errors"
)

func runImport(ctx context.Context, e env) error { return errors.New("import: not implemented yet") }
