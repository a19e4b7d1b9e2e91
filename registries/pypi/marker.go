package pypi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// Environment holds the values of PEP 508 environment marker variables
// (https://peps.python.org/pep-0508/#environment-markers) for one Python interpreter, by variable
// name: "python_version" -> "3.11", "sys_platform" -> "linux", "platform_machine" -> "x86_64" …
// A variable that is absent is unknown: a marker that depends on it evaluates to unknown (see
// EvalMarker). "extra" is never read from it: extras are passed to EvalMarker.
type Environment map[string]string

// markerVars are the marker variables of PEP 508, with the dotted names of PEP 345 that
// packaging still accepts mapped to them.
var markerVars = map[string]string{
	"python_version": "python_version", "python_full_version": "python_full_version",
	"os_name": "os_name", "sys_platform": "sys_platform", "platform_release": "platform_release",
	"platform_system": "platform_system", "platform_version": "platform_version",
	"platform_machine": "platform_machine", "platform_python_implementation": "platform_python_implementation",
	"implementation_name": "implementation_name", "implementation_version": "implementation_version",
	"extra":   "extra",
	"os.name": "os_name", "sys.platform": "sys_platform", "platform.version": "platform_version",
	"platform.machine": "platform_machine", "platform.python_implementation": "platform_python_implementation",
	"python_implementation": "platform_python_implementation",
}

// pythonDirName matches the directory a Python installation keeps its libraries in.
var pythonDirName = regexp.MustCompile(`^(python|pypy)(\d+)\.(\d+)t?$`)

// SitePackagesEnvironment returns the marker environment of the interpreter that owns the
// site-packages directory dir, found without running it:
//
//   - python_version from the directory's path (lib/python3.11/site-packages), and
//     python_full_version, implementation_version and the implementation from the pyvenv.cfg of a
//     virtual environment (its "version" or "version_info" and "implementation" keys);
//   - os_name, sys_platform, platform_system and platform_machine from the machine docidx runs on
//     (the interpreter is taken to run there, as it does when its site-packages is crawled);
//   - implementation_name "cpython" unless the path or pyvenv.cfg says PyPy.
//
// platform_release and platform_version, and python_version for a directory that names no
// Python version (Debian's /usr/lib/python3/dist-packages) stay unknown.
func SitePackagesEnvironment(dir string) Environment {
	env := Environment{}
	for k, v := range platformEnvironment(runtime.GOOS, runtime.GOARCH) {
		env[k] = v
	}
	impl := "cpython"
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	for d := abs; d != filepath.Dir(d); d = filepath.Dir(d) {
		if m := pythonDirName.FindStringSubmatch(filepath.Base(d)); m != nil {
			env["python_version"] = m[2] + "." + m[3]
			if m[1] == "pypy" {
				impl = "pypy"
			}
			break
		}
	}
	// A venv's site-packages is <venv>/lib/pythonX.Y/site-packages, or <venv>/Lib/site-packages
	// on Windows.
	for _, up := range []string{"../../..", "../.."} {
		cfg, err := readPyvenvCfg(filepath.Join(abs, filepath.FromSlash(up), "pyvenv.cfg"))
		if err != nil {
			continue
		}
		v := cfg["version_info"]
		if v == "" {
			v = cfg["version"]
		}
		if parts := strings.Split(v, "."); len(parts) >= 3 && parsePEP440(strings.Join(parts[:3], ".")).ok {
			full := strings.Join(parts[:3], ".")
			env["python_full_version"] = full
			env["python_version"] = parts[0] + "." + parts[1]
			env["implementation_version"] = full
		}
		if strings.EqualFold(cfg["implementation"], "pypy") {
			impl = "pypy"
		}
		break
	}
	env["implementation_name"] = impl
	if impl == "pypy" {
		env["platform_python_implementation"] = "PyPy"
		delete(env, "implementation_version") // PyPy's own version, not Python's
	} else {
		env["platform_python_implementation"] = "CPython"
	}
	return env
}

// readPyvenvCfg reads the "key = value" lines of a virtual environment's pyvenv.cfg.
func readPyvenvCfg(p string) (map[string]string, error) {
	b, err := readLimitedFile(p, MaxMetadata)
	if err != nil {
		return nil, err
	}
	cfg := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			cfg[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	return cfg, nil
}

// platformEnvironment returns the marker variables Python reports on goos/goarch (os.name,
// sys.platform, platform.system(), platform.machine()); a value Python spells with a version
// (sys.platform "freebsd14") is left out.
func platformEnvironment(goos, goarch string) Environment {
	env := Environment{"os_name": "posix"}
	switch goos {
	case "linux", "android":
		env["sys_platform"], env["platform_system"] = "linux", "Linux"
	case "darwin", "ios":
		env["sys_platform"], env["platform_system"] = "darwin", "Darwin"
	case "windows":
		env["sys_platform"], env["platform_system"], env["os_name"] = "win32", "Windows", "nt"
	case "freebsd":
		env["platform_system"] = "FreeBSD"
	case "openbsd":
		env["platform_system"] = "OpenBSD"
	case "netbsd":
		env["platform_system"] = "NetBSD"
	}
	machine := map[string]string{
		"amd64": "x86_64", "arm64": "aarch64", "386": "i686", "arm": "armv7l",
		"ppc64le": "ppc64le", "ppc64": "ppc64", "s390x": "s390x", "riscv64": "riscv64", "loong64": "loongarch64",
	}[goarch]
	switch {
	case goos == "windows" && goarch == "amd64":
		machine = "AMD64"
	case goos == "windows" && goarch == "arm64":
		machine = "ARM64"
	case goos == "darwin" && goarch == "arm64":
		machine = "arm64"
	}
	if machine != "" {
		env["platform_machine"] = machine
	}
	return env
}

// ErrBadMarker is returned by EvalMarker for a marker that does not parse.
var ErrBadMarker = errors.New("bad environment marker")

// EvalMarker evaluates a PEP 508 environment marker ('python_version < "3.10" and extra ==
// "async"') for env, with extras (any spelling: compared PEP 685-normalized) as the extras asked
// for; with none, "extra == ..." is false, as pip evaluates a distribution's requirements.
//
// Comparisons follow packaging.markers: when the operator is a PEP 440 one and both sides parse
// as versions they compare as versions (pre-releases included), else as strings; "in" and "not
// in" test substrings. The result is known unless the marker depends on a variable env lacks (or
// on a comparison PEP 508 leaves undefined, such as ~= between non-versions), in which case holds
// is false and known is false; "and" and "or" follow three-valued logic, so "sys_platform ==
// 'win32' and platform_release >= '10'" is known on Linux. A marker that does not parse returns
// an error wrapping ErrBadMarker.
func EvalMarker(marker string, env Environment, extras []string) (holds, known bool, err error) {
	toks, err := tokenizeMarker(marker)
	if err != nil {
		return false, false, fmt.Errorf("%w %q: %v", ErrBadMarker, marker, err)
	}
	p := &markerParser{toks: toks}
	node, err := p.or()
	if err == nil && p.i < len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.i].text)
	}
	if err != nil {
		return false, false, fmt.Errorf("%w %q: %v", ErrBadMarker, marker, err)
	}
	want := map[string]bool{}
	for _, x := range extras {
		want[Normalize(strings.TrimSpace(x))] = true
	}
	switch node.eval(env, want) {
	case yes:
		return true, true, nil
	case no:
		return false, true, nil
	}
	return false, false, nil
}

// tri is a three-valued truth.
type tri int8

const (
	unknown tri = iota
	no
	yes
)

func (a tri) and(b tri) tri {
	switch {
	case a == no || b == no:
		return no
	case a == yes && b == yes:
		return yes
	}
	return unknown
}

func (a tri) or(b tri) tri {
	switch {
	case a == yes || b == yes:
		return yes
	case a == no && b == no:
		return no
	}
	return unknown
}

type markerTok struct {
	kind byte // 's' string, 'v' variable, 'o' operator, '(' , ')', '&' and, '|' or
	text string
}

func tokenizeMarker(s string) ([]markerTok, error) {
	var toks []markerTok
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			toks = append(toks, markerTok{c, string(c)})
			i++
		case c == '"' || c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, errors.New("unclosed string")
			}
			toks = append(toks, markerTok{'s', s[i+1 : i+1+j]})
			i += j + 2
		case strings.ContainsRune("<>=!~", rune(c)):
			j := i
			for j < len(s) && strings.ContainsRune("<>=!~", rune(s[j])) {
				j++
			}
			op := s[i:j]
			switch op {
			case "===", "==", "!=", "<=", ">=", "<", ">", "~=":
			default:
				return nil, fmt.Errorf("unknown operator %q", op)
			}
			toks = append(toks, markerTok{'o', op})
			i = j
		default:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '.' || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9') {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("unexpected %q", s[i:i+1])
			}
			word := s[i:j]
			i = j
			switch word {
			case "and":
				toks = append(toks, markerTok{'&', word})
			case "or":
				toks = append(toks, markerTok{'|', word})
			case "in":
				toks = append(toks, markerTok{'o', "in"})
			case "not":
				k := i
				for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
					k++
				}
				if !strings.HasPrefix(s[k:], "in") || k == i {
					return nil, errors.New(`"not" must be followed by "in"`)
				}
				toks = append(toks, markerTok{'o', "not in"})
				i = k + 2
			default:
				v, ok := markerVars[word]
				if !ok {
					return nil, fmt.Errorf("unknown variable %q", word)
				}
				toks = append(toks, markerTok{'v', v})
			}
		}
	}
	return toks, nil
}

// markerNode is a parsed marker: a comparison, or "and"/"or" of two markers.
type markerNode struct {
	op          string // "and", "or", or a comparison operator
	left, right *markerNode
	lhs, rhs    markerTok // operands of a comparison
}

type markerParser struct {
	toks  []markerTok
	i     int
	depth int // parentheses open
}

// maxMarkerDepth bounds the nesting of parentheses in a marker.
const maxMarkerDepth = 64

func (p *markerParser) peek() byte {
	if p.i < len(p.toks) {
		return p.toks[p.i].kind
	}
	return 0
}

func (p *markerParser) or() (*markerNode, error) { return p.chain('|', "or", p.and) }

func (p *markerParser) and() (*markerNode, error) { return p.chain('&', "and", p.atom) }

// chain parses one or more operands joined by the token kind, grouping them from the left into
// nodes of op ("a or b or c" is (a or b) or c).
func (p *markerParser) chain(kind byte, op string, operand func() (*markerNode, error)) (*markerNode, error) {
	l, err := operand()
	for err == nil && p.peek() == kind {
		p.i++
		var r *markerNode
		if r, err = operand(); err == nil {
			l = &markerNode{op: op, left: l, right: r}
		}
	}
	return l, err
}

func (p *markerParser) atom() (*markerNode, error) {
	if p.peek() == '(' {
		if p.depth++; p.depth > maxMarkerDepth {
			return nil, fmt.Errorf("parentheses nested deeper than %d", maxMarkerDepth)
		}
		p.i++
		n, err := p.or()
		p.depth--
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, errors.New("unclosed (")
		}
		p.i++
		return n, nil
	}
	if p.i+3 > len(p.toks) {
		return nil, errors.New("incomplete comparison")
	}
	l, o, r := p.toks[p.i], p.toks[p.i+1], p.toks[p.i+2]
	if (l.kind != 's' && l.kind != 'v') || o.kind != 'o' || (r.kind != 's' && r.kind != 'v') {
		return nil, fmt.Errorf("want VARIABLE OP 'string', got %q %q %q", l.text, o.text, r.text)
	}
	p.i += 3
	return &markerNode{op: o.text, lhs: l, rhs: r}, nil
}

func (n *markerNode) eval(env Environment, extras map[string]bool) tri {
	switch n.op {
	case "and":
		return n.left.eval(env, extras).and(n.right.eval(env, extras))
	case "or":
		return n.left.eval(env, extras).or(n.right.eval(env, extras))
	}
	if n.lhs.text == "extra" && n.lhs.kind == 'v' || n.rhs.text == "extra" && n.rhs.kind == 'v' {
		return n.evalExtra(extras)
	}
	value := func(t markerTok) (string, bool) {
		if t.kind == 's' {
			return t.text, true
		}
		v, ok := env[t.text]
		return v, ok
	}
	l, lok := value(n.lhs)
	r, rok := value(n.rhs)
	if !lok || !rok {
		return unknown
	}
	return compareMarker(l, n.op, r)
}

// evalExtra evaluates a comparison with the "extra" variable: true when the other side names an
// extra asked for (PEP 685: both normalized).
func (n *markerNode) evalExtra(extras map[string]bool) tri {
	other := n.rhs
	if n.rhs.kind == 'v' && n.rhs.text == "extra" {
		other = n.lhs
	}
	if other.kind != 's' {
		return unknown
	}
	in := extras[Normalize(other.text)]
	switch n.op {
	case "==", "===", "in":
		return truth(in)
	case "!=", "not in":
		return truth(!in)
	}
	return unknown
}

func truth(b bool) tri {
	if b {
		return yes
	}
	return no
}

// compareMarker compares two marker values as packaging.markers does.
func compareMarker(l, op, r string) tri {
	switch op {
	case "in":
		return truth(strings.Contains(r, l))
	case "not in":
		return truth(!strings.Contains(r, l))
	}
	if cs, err := parseSpecifiers(op + r); err == nil && len(cs) == 1 {
		if v := parsePEP440(l); v.ok {
			return truth(cs[0].match(l, v))
		}
	}
	switch op {
	case "==":
		return truth(l == r)
	case "!=":
		return truth(l != r)
	case "<":
		return truth(l < r)
	case "<=":
		return truth(l <= r)
	case ">":
		return truth(l > r)
	case ">=":
		return truth(l >= r)
	}
	return unknown // ~= or === between values that are not versions: undefined in PEP 508
}
