package main

import (
	"context"
	"errors"
)

func runVersion(ctx context.Context, e env) error { return errors.New("version: not implemented yet") }
