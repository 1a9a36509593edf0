package retry

type Option func()

func Do(retryableFunc func() error, opts ...Option) error { return retryableFunc() }
