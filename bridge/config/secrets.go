package config

// Secrets returns the values never shown to the model or logged: every
// ${VAR} value expanded into the entry (its env, args, url, headers...)
// and every header value. The output stage redacts those of 8 characters
// or more.
func (s Server) Secrets() []string { return s.secrets }
