package tasks

type Arg struct {
	Name  string
	Type  string
	Value interface{}
}

type Signature struct {
	UUID      string
	Name      string
	GroupUUID string
	Args      []Arg
}

type Group struct {
	GroupUUID string
	Tasks     []*Signature
}
