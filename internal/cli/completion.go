package cli

import (
	"fmt"
	"sort"
	"strings"
)

// Shells are the shells Completion writes a script for.
func Shells() []string { return []string{"bash", "zsh", "fish"} }

// Completion is the completion script for shell, or an error naming the shells there are.
func (p Program) Completion(shell string) (string, error) {
	switch shell {
	case "bash":
		return p.bash(), nil
	case "zsh":
		return p.zsh(), nil
	case "fish":
		return p.fish(), nil
	}
	return "", fmt.Errorf("no completion for shell %q: use %s", shell, strings.Join(Shells(), ", "))
}

// completable are the commands the scripts offer: the visible ones.
func (p Program) completable() []Command { return p.Visible() }

// ident is the program's name as a shell identifier.
func (p Program) ident() string { return strings.NewReplacer("-", "_", ".", "_").Replace(p.Name) }

// fn is a shell function name of this program: __hooksup_values.
func (p Program) fn(suffix string) string { return "__" + p.ident() + "_" + suffix }

// valueFlagPatterns is a case pattern matching every spelling of the flags that take a value.
func valueFlagPatterns(flags []Flag) string {
	var pats []string
	for _, f := range flags {
		if f.TakesValue() {
			pats = append(pats, f.spellings()...)
		}
	}
	return strings.Join(pats, "|")
}

func spellingsOf(flags []Flag) []string {
	var out []string
	for _, f := range flags {
		out = append(out, f.Spelling())
	}
	return out
}

// ---- bash ----

func (p Program) bash() string {
	var b strings.Builder
	values, words, fileFn, main := p.fn("values"), p.fn("words"), p.fn("files"), "_"+p.ident()
	fmt.Fprintf(&b, `# bash completion for %[1]s. Load it with
#   source <(%[1]s completion bash)
# or save it as ~/.local/share/bash-completion/completions/%[1]s.

# %[2]s: file names, as readline completes them.
%[2]s() {
    compopt -o default 2>/dev/null
    COMPREPLY=()
}

# %[3]s "WORD...": the words that begin with $cur.
%[3]s() {
    local v
    COMPREPLY=()
    for v in $1; do [[ $v == "$cur"* ]] && COMPREPLY+=("$v"); done
}

# %[4]s KIND: the values of KIND that begin with $cur, asked of %[1]s itself (one value a
# line, a tab before its description).
%[4]s() {
    local v _
    COMPREPLY=()
    while IFS=$'\t' read -r v _; do
        [[ $v == "$cur"* ]] && COMPREPLY+=("$v")
    done < <("$self" %[5]s "$1" 2>/dev/null)
}

`, p.Name, fileFn, words, values, p.Complete)
	fmt.Fprintf(&b, `%s() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=
    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
    local self=${COMP_WORDS[0]/#\~/$HOME}
    # bash splits --flag=value at the "=" (COMP_WORDBREAKS).
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    # The command is the first word that is neither a global flag nor a flag's value.
    local i=1 cmd= w
    while (( i < COMP_CWORD )); do
        w=${COMP_WORDS[i]}
        case $w in
            %s)
                if [[ ${COMP_WORDS[i+1]} == = ]]; then (( i += 3 )); else (( i += 2 )); fi
                continue ;;
            -*) ;;
            *) cmd=$w; break ;;
        esac
        (( i++ ))
    done
`, main, valueFlagPatterns(p.Flags))
	b.WriteString("    if [[ -z $cmd ]]; then\n")
	p.bashFlagValues(&b, p.Flags, "        ")
	fmt.Fprintf(&b, "        if [[ $cur == -* ]]; then\n            COMPREPLY=($(compgen -W %q -- \"$cur\"))\n        else\n            COMPREPLY=($(compgen -W %q -- \"$cur\"))\n        fi\n        return\n    fi\n",
		strings.Join(spellingsOf(p.Flags), " "), strings.Join(names(p.completable()), " "))
	b.WriteString("    case $cmd in\n")
	for _, c := range p.completable() {
		fmt.Fprintf(&b, "        %s)\n", c.Name)
		if c.Passthrough {
			fmt.Fprintf(&b, "            %s ;;\n", fileFn)
			continue
		}
		if len(c.Subcommands) > 0 {
			p.bashSubcommands(&b, c, "            ")
			continue
		}
		p.bashArgs(&b, c, "            ")
		b.WriteString("            ;;\n")
	}
	b.WriteString("    esac\n}\n\n")
	fmt.Fprintf(&b, "complete -F %s %s\n", main, p.Name)
	return b.String()
}

// bashArgs completes a command's flags, their values and its arguments.
func (p Program) bashArgs(b *strings.Builder, c Command, indent string) {
	p.bashFlagValues(b, c.Flags, indent)
	if len(c.Flags) > 0 {
		fmt.Fprintf(b, "%[1]sif [[ $cur == -* ]]; then\n%[1]s    COMPREPLY=($(compgen -W %[2]q -- \"$cur\"))\n%[1]s    return\n%[1]sfi\n",
			indent, strings.Join(spellingsOf(c.Flags), " "))
	}
	switch {
	case c.ArgValues.Files:
		fmt.Fprintf(b, "%s%s\n", indent, p.fn("files"))
	case !c.ArgValues.none():
		fmt.Fprintf(b, "%s%s\n", indent, p.bashValues(c.ArgValues))
	default:
		b.WriteString(indent + "COMPREPLY=()\n")
	}
}

// bashSubcommands completes a command of subcommands: its own flags and the subcommands until
// one is given (the first word after the command that is neither a flag nor a flag's value),
// then what that one takes. $i is the command's index in COMP_WORDS.
func (p Program) bashSubcommands(b *strings.Builder, c Command, indent string) {
	fmt.Fprintf(b, "%[1]slocal j=$((i+1)) sub=\n%[1]swhile (( j < COMP_CWORD )); do\n%[1]s    w=${COMP_WORDS[j]}\n%[1]s    case $w in\n", indent)
	if pats := valueFlagPatterns(c.Flags); pats != "" {
		fmt.Fprintf(b, "%[1]s        %[2]s)\n%[1]s            if [[ ${COMP_WORDS[j+1]} == = ]]; then (( j += 3 )); else (( j += 2 )); fi\n%[1]s            continue ;;\n", indent, pats)
	}
	fmt.Fprintf(b, "%[1]s        -*) ;;\n%[1]s        *) sub=$w; break ;;\n%[1]s    esac\n%[1]s    (( j++ ))\n%[1]sdone\n%[1]scase $sub in\n%[1]s    '')\n", indent)
	top := c
	top.ArgValues = Values{Words: names(c.Subcommands)}
	p.bashArgs(b, top, indent+"        ")
	b.WriteString(indent + "        ;;\n")
	for _, sc := range c.Subcommands {
		fmt.Fprintf(b, "%s    %s)\n", indent, sc.Name)
		p.bashArgs(b, sc, indent+"        ")
		b.WriteString(indent + "        ;;\n")
	}
	fmt.Fprintf(b, "%[1]s    *) COMPREPLY=() ;;\n%[1]sesac ;;\n", indent)
}

// bashFlagValues completes the value of the flag before the cursor.
func (p Program) bashFlagValues(b *strings.Builder, flags []Flag, indent string) {
	var cases []string
	for _, f := range flags {
		if !f.TakesValue() {
			continue
		}
		pat := strings.Join(f.spellings(), "|")
		switch {
		case f.Values.Files:
			cases = append(cases, fmt.Sprintf("%s    %s) %s; return ;;\n", indent, pat, p.fn("files")))
		case !f.Values.none():
			cases = append(cases, fmt.Sprintf("%s    %s) %s; return ;;\n", indent, pat, p.bashValues(f.Values)))
		default:
			cases = append(cases, fmt.Sprintf("%s    %s) COMPREPLY=(); return ;;\n", indent, pat))
		}
	}
	if len(cases) == 0 {
		return
	}
	b.WriteString(indent + "case $prev in\n")
	for _, c := range cases {
		b.WriteString(c)
	}
	b.WriteString(indent + "esac\n")
}

// bashValues is the call completing v (not files).
func (p Program) bashValues(v Values) string {
	if v.Dynamic != "" {
		return p.fn("values") + " " + v.Dynamic
	}
	return p.fn("words") + " " + fmt.Sprintf("%q", strings.Join(v.Words, " "))
}

func names(cs []Command) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// ---- zsh ----

// zq quotes s for zsh in single quotes.
func zq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// zdesc escapes a description for an _arguments [explanation] or a _describe entry.
func zdesc(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

// zdquote is a description in double quotes, for a ((value\:"description") action.
func zdquote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(zdesc(s)) + `"`
}

// zaction is the _arguments action completing v.
func (p Program) zaction(v Values) string {
	switch {
	case v.Files:
		return "_files"
	case len(v.Words) > 0 && len(v.Notes) > 0:
		var ws []string
		for _, w := range v.Words {
			ws = append(ws, zdesc(w)+`\:`+zdquote(v.Notes[w]))
		}
		return "((" + strings.Join(ws, " ") + "))"
	case len(v.Words) > 0:
		return "(" + strings.Join(v.Words, " ") + ")"
	case v.Dynamic != "":
		// A leading space: called as written, without compadd's options put before KIND.
		return " " + p.fn("dynamic") + " " + v.Dynamic
	}
	return " "
}

// zflags are _arguments specs for flags.
func (p Program) zflags(flags []Flag) []string {
	var out []string
	for _, f := range flags {
		desc := "[" + zdesc(f.summary()) + "]"
		if !f.TakesValue() {
			out = append(out, zq(f.Spelling()+desc))
			continue
		}
		val := strings.ToLower(f.argText())
		if f.Arg == "" {
			val = f.Name
		}
		// "--config=": the value may follow in the same word after "=" or in the next word.
		out = append(out, zq(f.Spelling()+"="+desc+":"+zdesc(val)+":"+p.zaction(f.Values)))
	}
	return out
}

func (p Program) zsh() string {
	var b strings.Builder
	main, dynamic := "_"+p.Name, p.fn("dynamic")
	fmt.Fprintf(&b, `#compdef %[1]s
# zsh completion for %[1]s. Load it with
#   source <(%[1]s completion zsh)      (after compinit)
# or save it as _%[1]s in a directory of your $fpath.

# %[2]s KIND: values asked of %[1]s itself (one a line, a tab before its description).
%[2]s() {
    local -a vals
    local line
    for line in ${(f)"$(${__%[4]s_self:-%[1]s} %[3]s $1 2>/dev/null)"}; do
        vals+=("${${line%%%%$'\t'*}//:/\\:}:${line#*$'\t'}")
    done
    _describe -t $1 $1 vals
}

%[5]s() {
    local __%[4]s_self=${words[1]/#\~/$HOME}
    local curcontext=$curcontext state state_descr line ret=1
    typeset -A opt_args
    _arguments -C \
`, p.Name, dynamic, p.Complete, p.ident(), main)
	for _, spec := range p.zflags(p.Flags) {
		fmt.Fprintf(&b, "        %s \\\n", spec)
	}
	b.WriteString("        '1:command:->command' \\\n        '*::argument:->argument' && ret=0\n")
	b.WriteString("    case $state in\n        command)\n            local -a commands\n            commands=(\n")
	for _, c := range p.completable() {
		fmt.Fprintf(&b, "                %s\n", zq(zdesc(c.Name)+":"+zdesc(c.Summary)))
	}
	fmt.Fprintf(&b, "            )\n            _describe -t commands %s commands && ret=0\n            ;;\n", zq(p.Name+" command"))
	b.WriteString("        argument)\n            curcontext=${curcontext%:*:*}:" + p.Name + "-$words[1]:\n            case $words[1] in\n")
	for _, c := range p.completable() {
		if len(c.Subcommands) > 0 {
			p.zshSubcommands(&b, c, "                ")
			continue
		}
		specs := p.zargs(c)
		if len(specs) == 0 {
			fmt.Fprintf(&b, "                %s) _message 'no more arguments' ;;\n", c.Name)
			continue
		}
		fmt.Fprintf(&b, "                %s)\n                    _arguments \\\n", c.Name)
		for i, s := range specs {
			end := " \\"
			if i == len(specs)-1 {
				end = " && ret=0"
			}
			fmt.Fprintf(&b, "                        %s%s\n", s, end)
		}
		b.WriteString("                    ;;\n")
	}
	b.WriteString("            esac\n            ;;\n    esac\n    return ret\n}\n\n")

	// Autoloaded from $fpath, the file's body runs as the function itself; sourced, it registers
	// the function.
	fmt.Fprintf(&b, "if [[ $funcstack[1] == %[1]s ]]; then\n    %[1]s \"$@\"\nelse\n    compdef %[1]s %[2]s\nfi\n", main, p.Name)
	return b.String()
}

// zargs are the _arguments specs of a command without subcommands: its flags, its arguments.
func (p Program) zargs(c Command) []string {
	specs := p.zflags(c.Flags)
	switch {
	case c.Passthrough:
		specs = append(specs, zq("*::"+zdesc(strings.Trim(c.Args, "[]."))+":_files"))
	case !c.ArgValues.none():
		n := "1"
		if strings.Contains(c.Args, "...") {
			n = "*"
		}
		specs = append(specs, zq(n+":"+zdesc(strings.ToLower(strings.Trim(c.Args, "[].")))+":"+p.zaction(c.ArgValues)))
	}
	return specs
}

// zshSubcommands completes a command of subcommands, in the command's branch of the case: its
// flags and the subcommands, then what the one given takes.
func (p Program) zshSubcommands(b *strings.Builder, c Command, indent string) {
	var subs []string
	for _, sc := range c.Subcommands {
		subs = append(subs, zdesc(sc.Name)+`\:`+zdquote(sc.Summary))
	}
	fmt.Fprintf(b, "%[1]s%[2]s)\n%[1]s    _arguments -C \\\n", indent, c.Name)
	for _, spec := range p.zflags(c.Flags) {
		fmt.Fprintf(b, "%s        %s \\\n", indent, spec)
	}
	fmt.Fprintf(b, "%[1]s        %[2]s \\\n%[1]s        '*::argument:->subcommand' && ret=0\n", indent, zq("1:subcommand:(("+strings.Join(subs, " ")+"))"))
	fmt.Fprintf(b, "%[1]s    if [[ $state == subcommand ]]; then\n%[1]s        curcontext=${curcontext%%:*:*}:%[2]s-%[3]s-$words[1]:\n%[1]s        case $words[1] in\n", indent, p.Name, c.Name)
	for _, sc := range c.Subcommands {
		specs := p.zargs(sc)
		if len(specs) == 0 {
			fmt.Fprintf(b, "%s            %s) _message 'no more arguments' ;;\n", indent, sc.Name)
			continue
		}
		fmt.Fprintf(b, "%s            %s) _arguments %s && ret=0 ;;\n", indent, sc.Name, strings.Join(specs, " "))
	}
	fmt.Fprintf(b, "%[1]s        esac\n%[1]s    fi\n%[1]s    ;;\n", indent)
}

// ---- fish ----

// fq quotes s for fish in single quotes.
func fq(s string) string { return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'" }

func (p Program) fish() string {
	var b strings.Builder
	cmdFn, usingFn, dynFn := p.fn("command"), p.fn("using"), p.fn("dynamic")
	fmt.Fprintf(&b, `# fish completion for %[1]s. Load it with
#   %[1]s completion fish | source
# or save it as ~/.config/fish/completions/%[1]s.fish.

# %[2]s: the command given so far (the first word that is neither a global flag nor a flag's
# value), or nothing.
function %[2]s
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case %[5]s
                set skip 1
            case '-*'
            case '*'
                echo $w
                return 0
        end
    end
    return 1
end

# %[3]s NAME: whether the command given is NAME.
function %[3]s
    set -l given (%[2]s); and test "$given" = $argv[1]
end

# %[4]s KIND: values asked of %[1]s itself (one a line, a tab before its description).
function %[4]s
    set -l self (commandline -opc)[1]
    command -q $self; or set self %[1]s
    $self %[6]s $argv[1] 2>/dev/null
end

# %[7]s: the subcommand given after the command (hooksup web revoke), or nothing.
function %[7]s
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    set -l seen 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case %[8]s
                set skip 1
            case '-*'
            case '*'
                if test $seen = 1
                    echo $w
                    return 0
                end
                set seen 1
        end
    end
    return 1
end

complete -c %[1]s -f
`, p.Name, cmdFn, usingFn, dynFn, strings.Join(p.fishValueFlagPatterns(), " "), p.Complete, p.fn("subcommand"), strings.Join(p.fishAllValueFlagPatterns(), " "))
	noCmd := "not " + cmdFn
	for _, f := range p.Flags {
		fmt.Fprintf(&b, "complete -c %s -n %s %s\n", p.Name, fq(noCmd), p.fishFlag(f))
	}
	for _, c := range p.completable() {
		fmt.Fprintf(&b, "complete -c %s -n %s -a %s -d %s\n", p.Name, fq(noCmd), c.Name, fq(c.Summary))
	}
	for _, c := range p.completable() {
		cond := fq(usingFn + " " + c.Name)
		if len(c.Subcommands) > 0 {
			// The command's own flags go before its subcommand.
			cond = fq(usingFn + " " + c.Name + "; and not " + p.fn("subcommand"))
		}
		for _, f := range c.Flags {
			fmt.Fprintf(&b, "complete -c %s -n %s %s\n", p.Name, cond, p.fishFlag(f))
		}
		if len(c.Subcommands) > 0 {
			for _, sc := range c.Subcommands {
				fmt.Fprintf(&b, "complete -c %s -n %s -a %s -d %s\n", p.Name, cond, sc.Name, fq(sc.Summary))
			}
			for _, sc := range c.Subcommands {
				given := fq(usingFn + " " + c.Name + "; and contains -- " + sc.Name + " (" + p.fn("subcommand") + ")")
				for _, f := range sc.Flags {
					fmt.Fprintf(&b, "complete -c %s -n %s %s\n", p.Name, given, p.fishFlag(f))
				}
				if !sc.ArgValues.none() {
					fmt.Fprintf(&b, "complete -c %s -n %s -a %s\n", p.Name, given, fq(p.fishArgs(sc.ArgValues)))
				}
			}
			continue
		}
		switch {
		case c.Passthrough || c.ArgValues.Files:
			fmt.Fprintf(&b, "complete -c %s -n %s -F\n", p.Name, cond)
		case !c.ArgValues.none():
			fmt.Fprintf(&b, "complete -c %s -n %s -a %s\n", p.Name, cond, fq(p.fishArgs(c.ArgValues)))
		}
	}
	return b.String()
}

func (p Program) fishValueFlagPatterns() []string {
	var out []string
	for _, f := range p.Flags {
		if f.TakesValue() {
			for _, s := range f.spellings() {
				out = append(out, fq(s))
			}
		}
	}
	sort.Strings(out)
	return out
}

// fishAllValueFlagPatterns are the spellings of every flag that takes a value, the program's
// and its commands'.
func (p Program) fishAllValueFlagPatterns() []string {
	seen := map[string]bool{}
	var out []string
	flags := append([]Flag{}, p.Flags...)
	for _, c := range p.completable() {
		flags = append(flags, c.Flags...)
	}
	for _, f := range flags {
		if f.TakesValue() {
			for _, s := range f.spellings() {
				if !seen[s] {
					seen[s] = true
					out = append(out, fq(s))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// fishFlag is the part of a complete line naming the flag and its value.
func (p Program) fishFlag(f Flag) string {
	opt := "-l " + f.Name
	if len(f.Name) == 1 {
		opt = "-s " + f.Name
	}
	switch {
	case !f.TakesValue():
	case f.Values.Files:
		opt += " -r -F"
	case !f.Values.none():
		opt += " -x -a " + fq(p.fishArgs(f.Values))
	default:
		opt += " -x"
	}
	return opt + " -d " + fq(f.summary())
}

func (p Program) fishArgs(v Values) string {
	if v.Dynamic != "" {
		return "(" + p.fn("dynamic") + " " + v.Dynamic + ")"
	}
	if len(v.Notes) > 0 {
		var ws []string
		for _, w := range v.Words {
			ws = append(ws, w+`\t`+fq(v.Notes[w]))
		}
		return strings.Join(ws, " ")
	}
	return strings.Join(v.Words, " ")
}
