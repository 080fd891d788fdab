"""FormatSpread's format sampler for the multiple-choice structure, in plain Python.

A port of `_sample_value_assignments` (msclar/formatspread main.py) with the value lists, the
update_field refusals and the holistic check of grammar_definition.py, unrolled for the structure
of their task1135 (Question / Options + enumeration / Answer). Written apart from waver's
TypeScript, from the authors' code, so the committed fixture checks the port
(src/protocols/spread/sample-formats.test.ts). Usage: python3 sample_formats.py > formats.json
"""
import json
import random

SEPARATORS = ['', '::: ', ':: ', ': ', ' \n\t', '\n    ', ' : ', ' - ', ' ', '\n ', '\n\t', ':', '::', '- ', '\t']
SPACES = ['', ' ', '\n', ' \n', ' -- ', '  ', '; \n', ' || ', ' <sep> ', ' -- ', ', ', ' \n ', ' , ', '\n ', '. ', ' ,  ']
CASINGS = ['lambda x: x', 'lambda x: x.title()', 'lambda x: x.upper()', 'lambda x: x.lower()']
WRAPPERS = ["lambda x: f'({x})'", "lambda x: f'{x}.'", "lambda x: f'{x})'", "lambda x: f'{x} )'", "lambda x: f'[{x}]'", "lambda x: f'<{x}>'"]
NUMBERS = ['lambda x: x + 1', "lambda x: chr(ord('A') + x)", "lambda x: chr(ord('a') + x)", 'lambda x: chr(0x215F + x + 1)',
           'lambda x: EnumerationPromptFormat.ROMAN_NUMERALS[x]', 'lambda x: EnumerationPromptFormat.ROMAN_NUMERALS[x].upper()']
# pointer_action_pairs of the structure: root space, the options group's space (walked twice),
# the enumeration's wrapper, number format, space, separator; then the shared casing and separator.
ACTIONS = [SPACES, SPACES, SPACES, WRAPPERS, NUMBERS, SPACES, SEPARATORS, CASINGS, SEPARATORS]


def apply(names):
    space, o1, o2, wrapper, number, enum_space, enum_sep, casing, sep = names
    options_space = ''
    for s in (o1, o2):  # SpacingBetweenPromptComponents(allow_only_non_char_spaces=True).update_field
        if s.isspace():
            options_space = s
    # NewEnumerationPromptFormat.update_field: a separator with a newline needs a spacing with one
    if ('\n' in enum_sep) and '\n' not in enum_space:
        enum_sep = ' '
    # holistic_node_format_sanity_checks
    if sep == '' or not options_space.isspace():
        return None
    if '\n' in enum_sep and '\n' not in enum_space:
        return None
    if space == '':
        return None
    no_nl_fields = '\n' not in space
    no_nl_enum = no_nl_fields or '\n' not in options_space
    if no_nl_fields and '\n' in sep:
        return None
    if no_nl_enum and '\n' in enum_sep:
        return None
    return {
        'space': SPACES.index(space), 'optionsSpace': SPACES.index(options_space),
        'wrapper': WRAPPERS.index(wrapper), 'enumerator': NUMBERS.index(number),
        'enumSpace': SPACES.index(enum_space), 'enumSeparator': SEPARATORS.index(enum_sep),
        'casing': CASINGS.index(casing), 'separator': SEPARATORS.index(sep),
    }


def sample(n, seed):
    rng = random.Random(seed)
    draws, kept, seen = set(), [], set()
    while len(kept) < n:
        names = tuple(rng.choice(values) for values in ACTIONS)
        if names in draws:
            continue
        fmt = apply(names)
        if fmt is None:
            continue
        draws.add(names)
        key = json.dumps(fmt, sort_keys=True)
        if key not in seen:
            seen.add(key)
            kept.append(fmt)
    return kept


ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii', 'xiii', 'xiv', 'xv']
CASING_FNS = [lambda x: x, lambda x: x.title(), lambda x: x.upper(), lambda x: x.lower()]
WRAPPER_FNS = [lambda x: f'({x})', lambda x: f'{x}.', lambda x: f'{x})', lambda x: f'{x} )', lambda x: f'[{x}]', lambda x: f'<{x}>']
NUMBER_FNS = [lambda x: x + 1, lambda x: chr(ord('A') + x), lambda x: chr(ord('a') + x), lambda x: chr(0x215F + x + 1),
              lambda x: ROMAN[x], lambda x: ROMAN[x].upper()]


def render(fmt, question, options):
    """What their solve() then str.format write for this structure (print_output_fields, no answer text)."""
    name = CASING_FNS[fmt['casing']]
    sep = SEPARATORS[fmt['separator']]
    items = [f"{WRAPPER_FNS[fmt['wrapper']](NUMBER_FNS[fmt['enumerator']](k))}{SEPARATORS[fmt['enumSeparator']]}<|text|>"
             for k in range(len(options))]
    group = [f"{name('Options')}{sep}", SPACES[fmt['optionsSpace']], SPACES[fmt['enumSpace']].join(items)]
    fields = [f"{name('Question')}{sep}<|text|>", ''.join(group), f"{name('Answer')}{sep}"]
    return SPACES[fmt['space']].join(fields).replace('<|text|>', '{}').format(question, *options)


if __name__ == '__main__':
    example = ('Which gas do plants take in?', ['oxygen', 'carbon dioxide', 'helium', 'neon'])
    print(json.dumps({'source': 'src/test-support/spread/python/sample_formats.py', 'example': example,
                      'rendered': [render(f, *example) for f in sample(40, 0)],
                      'samples': [{'seed': s, 'n': n, 'formats': sample(n, s)} for s, n in [(0, 40), (42, 100), (7, 10)]]},
                     indent=1))
