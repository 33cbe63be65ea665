package main

import (
	"context"
	"errors"
)

func runAdd(ctx context.Context, e env) error { return errors.New("add: not implemented yet") }
