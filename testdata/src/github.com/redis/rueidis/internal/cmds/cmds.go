// Package cmds stubs github.com/redis/rueidis/internal/cmds: a command is
// built by a chain that starts with the Builder method named after it.
package cmds

type Completed struct{ cs []string }

type Builder struct{}

type (
	Publish        Completed
	PublishChannel Completed
	PublishMessage Completed
	Xadd           Completed
	XaddKey        Completed
	XaddId         Completed
	XaddFieldValue Completed
	Set            Completed
	SetKey         Completed
	SetValue       Completed
	Lpush          Completed
	LpushKey       Completed
	LpushElement   Completed
	Brpop          Completed
	BrpopKey       Completed
	BrpopTimeout   Completed
)

func (b Builder) Publish() Publish                             { return Publish{} }
func (c Publish) Channel(channel string) PublishChannel        { return PublishChannel(c) }
func (c PublishChannel) Message(message string) PublishMessage { return PublishMessage(c) }
func (c PublishMessage) Build() Completed                      { return Completed(c) }

func (b Builder) Xadd() Xadd                                   { return Xadd{} }
func (c Xadd) Key(key string) XaddKey                          { return XaddKey(c) }
func (c XaddKey) Id(id string) XaddId                          { return XaddId(c) }
func (c XaddId) FieldValue() XaddFieldValue                    { return XaddFieldValue(c) }
func (c XaddFieldValue) FieldValue(f, v string) XaddFieldValue { return c }
func (c XaddFieldValue) Build() Completed                      { return Completed(c) }

func (b Builder) Set() Set                   { return Set{} }
func (c Set) Key(key string) SetKey          { return SetKey(c) }
func (c SetKey) Value(value string) SetValue { return SetValue(c) }
func (c SetValue) Build() Completed          { return Completed(c) }

func (b Builder) Lpush() Lpush                            { return Lpush{} }
func (c Lpush) Key(key string) LpushKey                   { return LpushKey(c) }
func (c LpushKey) Element(element ...string) LpushElement { return LpushElement(c) }
func (c LpushElement) Build() Completed                   { return Completed(c) }

func (b Builder) Brpop() Brpop                          { return Brpop{} }
func (c Brpop) Key(key ...string) BrpopKey              { return BrpopKey(c) }
func (c BrpopKey) Timeout(timeout float64) BrpopTimeout { return BrpopTimeout(c) }
func (c BrpopTimeout) Build() Completed                 { return Completed(c) }
