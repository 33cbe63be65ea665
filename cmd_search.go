package main

import (
	"context"
	"errors"
)

func runSearch(ctx context.Context, e env) error { return errors.New("search: not implemented yet") }
