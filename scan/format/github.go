package format

import (
	"fmt"
	"io"
	"strings"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan/baseline"
)

// GitHubActions writes one workflow command per finding,
// `::error file=F,line=L,col=C,title=outboxify RULE::message`: printed in a
// GitHub Actions step, each becomes an annotation on the PR's diff. The
// message's first line is the finding's short text, the next ones its
// details (call chains, where the write is, what to do). Paths are relative to base, which must be
// the repository root for the annotation to land on the file.
func GitHubActions(w io.Writer, base string, findings []dualwrite.Finding) error {
	for _, f := range findings {
		p := f.Publish.Position
		props := []string{
			"file=" + ghProperty(baseline.Rel(base, p.Filename)),
			fmt.Sprintf("line=%d", p.Line),
		}
		if p.Column > 0 {
			props = append(props, fmt.Sprintf("col=%d", p.Column))
		}
		props = append(props, "title="+ghProperty("outboxify "+f.Rule))
		msg := strings.Join(append([]string{f.Short()}, verboseLines(base, f)...), "\n")
		if _, err := fmt.Fprintf(w, "::error %s::%s\n", strings.Join(props, ","), ghData(msg)); err != nil {
			return err
		}
	}
	return nil
}

// GitHub's workflow commands escape % CR LF in the message, and also : and
// , in property values (they end the properties and separate them). % goes
// first so the escapes themselves are not escaped again.
var (
	ghDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func ghData(s string) string     { return ghDataEscaper.Replace(s) }
func ghProperty(s string) string { return ghPropertyEscaper.Replace(s) }

// Details are a finding's lines beyond its message: the call chains to the
// publish and the write, where the write is. Text shows them under -v.
func Details(base string, f dualwrite.Finding) []string {
	var out []string
	if len(f.Publish.Via) > 0 {
		out = append(out, "publish "+catalog.Short(f.Publish.Name)+" reached via "+chain(f.Publish))
	}
	if f.Write != nil {
		wp := f.Write.Position
		line := fmt.Sprintf("DB write %s at %s:%d", catalog.Short(f.Write.Name), baseline.Rel(base, wp.Filename), wp.Line)
		if len(f.Write.Via) > 0 {
			line += " reached via " + chain(*f.Write)
		}
		out = append(out, line)
	}
	return out
}

func chain(c dualwrite.Call) string {
	vias := make([]string, len(c.Via))
	for i, v := range c.Via {
		vias[i] = catalog.Short(v)
	}
	s := strings.Join(vias, " -> ")
	if c.ViaInterface {
		s += " (through an interface)"
	}
	return s
}
