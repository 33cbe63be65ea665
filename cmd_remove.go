package main

import (
	"context"
	"errors"
)

func runRemove(ctx context.Context, e env) error { return errors.New("remove: not implemented yet") }
