package report

import (
	"reflect"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

var reflectTypeOfResult = reflect.TypeFor[*dualwrite.Result]()
