package aws

func String(s string) *string { return &s }
