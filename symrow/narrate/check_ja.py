"""検査の報告（:mod:`symrow.checker.report`）の日本語の言葉。

キーは :mod:`.check_en` と同じである（テストが一致を確かめる）。検査器のメッセージは
生じた場所で英語で作られるので、よく出るものは :data:`MESSAGES` の型で日本語に
置き換える。型に合わないメッセージは英語のまま示す。
"""

TEMPLATES: dict[str, str] = {
    "against": "symrow check：照らし合わせる導出は {against}",
    "convention": "規約：{text}",
    "note": "注：{text}",
    "not_read": "読まなかった箇所：{line} 行 {column} 文字目：{reason}",
    "section": "-- 節 {section}",
    "verdict": "判定：{text}",
    "step": "ステップ {index}  行 {line}  {status}  ",
    "status.holds": "成り立つ",
    "status.wrong": "誤り",
    "status.unreadable": "読めない",
    "status.unchecked": "未検査",
    "status.defines": "定義",
    "where.at": "{line} 行 {column} 文字目",
    "where.near": "、'{near}' のところ",
    "where.for": "{parts} のとき：",
    "where.and": "、",
    "others": "成分 {shown}{more} も違う",
    "others.more": " ほか {count} 個",
    "missing.one": "足りない項：{terms}",
    "missing.many": "足りない項：{terms}",
    "extra.one": "余分な項：{terms}",
    "extra.many": "余分な項：{terms}",
    "value": "値は {got}、正しくは {expected}",
    "constant": "単独で足されている数は {got}、正しくは {expected}",
    "coefficient": "{term} の係数は {got}、正しくは {expected}",
    "hint": "ヒント：{text}",
    "example": "例えば {at}左辺 = {left}、右辺 = {right}",
    "example.at": "{shown} のとき ",
    "example.more": "、…（全 {count} 個の値は JSON の報告にある）",
    "summary": "{verdict}（{checked}{more}）",
    "verdict.holds": "成り立つ",
    "verdict.wrong": "誤りあり",
    "verdict.unreadable": "読めない箇所あり",
    "verdict.unchecked": "未検査",
    "claims.one": "{count} 個の主張を検査",
    "claims.many": "{count} 個の主張を検査",
    "holds.one": "{count} 個が成り立つ",
    "holds.many": "{count} 個が成り立つ",
    "wrong.count": "{count} 個が誤り",
    "could_not_read": "{count} 個は読めない",
    "not_checked": "{count} 個は未検査",
    "definitions.one": "定義 {count} 個",
    "definitions.many": "定義 {count} 個",
    "unread.one": "読まなかった数式 {count} 箇所",
    "unread.many": "読まなかった数式 {count} 箇所",
    "list": "、",
    "checked_then": "：",
    # Markdown と LaTeX の報告
    "mark.holds": "✓ 成り立つ",
    "mark.wrong": "✗ 誤り",
    "mark.unreadable": "? 読めない",
    "mark.unchecked": "– 未検査",
    "mark.defines": "≔ 定義",
    "md.title": "**symrow check：{verdict}**（照らし合わせる導出は {against}）：{inner}",
    "md.step": "**ステップ {index}**（{line} 行）：{mark}",
    "md.section": "（節 {section}）",
    "tex.title": "symrow check：{verdict}",
    "tex.against": "（照らし合わせる導出は {against}）：{inner}",
    "tex.step": "ステップ {index}",
    "tex.line": "（{line} 行）：{word}",
    "md.others": "成分 {shown}{more} も違う",
    "more_then": "；",
}

_SHAPE = r"(?:an? )?(\d+) x (\d+) matrix"

#: the tail of the message of a place written twice (symrow.formula.entries, _written)
_TWICE = (r" is written twice at these sizes \(the places before and after the dots meet\), "
          r"as (.+) and as (.+), which differ")

#: the checker's frequent messages and hints, as (regular expression, Japanese); a group
#: written {T1} is itself translated (a message inside a message)
MESSAGES: list = [
    (r"entry \((\d+), (\d+)\) differs", r"成分 (\1, \2) が違う"),
    (r"entry \((\d+), (\d+)\): (?P<T1>.+)", r"成分 (\1, \2)：{T1}"),
    (r"for ([a-z]) = (\d+): (?P<T1>.+)", r"\1 = \2 のとき：{T1}"),
    (r"the two sides differ", r"両辺が違う"),
    (r"the left side is " + _SHAPE + r", the right side " + _SHAPE,
     r"左辺は \1×\2 行列、右辺は \3×\4 行列である"),
    (r"the left side is a number, the right side " + _SHAPE,
     r"左辺は数、右辺は \1×\2 行列である"),
    (r"the left side is " + _SHAPE + r", the right side a number",
     r"左辺は \1×\2 行列、右辺は数である"),
    (r"a (\d+) x (\d+) matrix times a (\d+) x (\d+) matrix is undefined",
     r"\1×\2 行列と \3×\4 行列の積は定義されない"),
    (r"matrices of different shapes are added: (\d+) x (\d+) and (\d+) x (\d+)",
     r"形の違う行列を足している：\1×\2 と \3×\4"),
    (r"a number is added to " + _SHAPE,
     r"\1×\2 行列に数を足している（softmax を成分ごとに取っていないか）"),
    (r"a (\d+) x (\d+) matrix has no row (\d+)", r"\1×\2 行列に第 \3 行はない"),
    (r"a (\d+) x (\d+) matrix has no entry (\d+)", r"\1×\2 行列に第 \3 成分はない"),
    (r"(.+) is (\d+) x (\d+), so it has no row (\d+) \(indices start at 1\)",
     r"\1 は \2×\3 なので第 \4 行はない（添字は 1 から数える）"),
    (r"(.+) is (\d+) x (\d+), so it has no column (\d+) \(indices start at 1\)",
     r"\1 は \2×\3 なので第 \4 列はない（添字は 1 から数える）"),
    (r"the right side is the number (.+?), the other is not that number for every value "
     r"of the entries \(no numbers are given on this page, so the step claims an "
     r"identity\)",
     r"右辺は数 \1 だが、左辺は成分の値によらずその数になるわけではない（このページには"
     r"数値がないので、この行は恒等式の主張として読んだ）"),
    (r"the left side is the number (.+?), the other is not that number for every value "
     r"of the entries \(no numbers are given on this page, so the step claims an "
     r"identity\)",
     r"左辺は数 \1 だが、右辺は成分の値によらずその数になるわけではない（このページには"
     r"数値がないので、この行は恒等式の主張として読んだ）"),
    (r"one side is a number, the other is not that number for every value of the entries "
     r"\(no numbers are given on this page, so the step claims an identity\)",
     r"片方の辺は数だが、もう片方は成分の値によらずその数になるわけではない（このページ"
     r"には数値がないので、この行は恒等式の主張として読んだ）"),
    (r"the page's own name (.+?), followed in what comes after \(it is the value (.+) in "
     r"the formula\)",
     r"ページ独自の名前 \1（式の中の値 \2 のこと）：以降もこの意味で読む"),
    (r"the page's own name (.+?), followed in what comes after \(it is (.+) of the "
     r"derivation\)",
     r"ページ独自の名前 \1（この導出の \2 のこと）：以降もこの意味で読む"),
    (r"the page's own name (.+?), followed in what comes after \(it is (.+)\)",
     r"ページ独自の名前 \1（\2 のこと）：以降もこの意味で読む"),
    (r"the page's own name (.+?), followed in what comes after",
     r"ページ独自の名前 \1：以降もこの意味で読む"),
    (r"row vectors \(as the text states\)", r"行ベクトル（本文がそう述べている）"),
    (r"row vectors \(inferred from line (\d+), which only makes sense with row vectors\)",
     r"行ベクトル（\1 行目から判断した。その行は行ベクトルでなければ意味をなさない）"),
    (r"column vectors \(as the text states\)", r"列ベクトル（本文がそう述べている）"),
    (r"column vectors \(inferred from line (\d+), which only makes sense with column vectors\)",
     r"列ベクトル（\1 行目から判断した。その行は列ベクトルでなければ意味をなさない）"),
    (r"row vectors \(symrow's reading; nothing on the page says otherwise\)",
     r"行ベクトル（symrow の読み方。ページに別の記述はない）"),
    (r"the page's numbers for (.+?) fix the sizes \((.+?)\): checked at those sizes; "
     r"(.+?) as one row, added to every row \(as the page writes it\)",
     r"ページの \1 の数が大きさ（\2）を決める：その大きさで検査する。\3 は 1 行で、各行に"
     r"足す（ページの書き方どおり）"),
    (r"the page's numbers for (.+?) fix the sizes \((.+?)\): checked at those sizes",
     r"ページの \1 の数が大きさ（\2）を決める：その大きさで検査する"),
    (r"the page's (.+?) is the length of (.+?) \((\d+)\), the end of its sums over the "
     r"entries (.+?): the page's own size",
     r"ページの \1 は \2 の長さ（\3）：成分 \4 についての和の上端であり、ページ独自の大きさ"),
    (r"the page's (.+?) is the length of (\S+), the end of its sums over the entries (.+?): "
     r"the page's own size",
     r"ページの \1 は \2 の長さ：成分 \3 についての和の上端であり、ページ独自の大きさ"),
    (r"\* is read as the element-wise product, as the page says",
     r"* は要素ごとの積と読む（ページがそう述べている）"),
    (r"not read: one side has the labels (.+?) of the page's own loss in it, the other "
     r"none: it holds only for particular labels \(one-hot at one class, say\), which the "
     r"page does not name here",
     r"読んでいない：片方の辺にだけページ独自の損失のラベル \1 がある。特定のラベル（ある"
     r"クラスでの one-hot など）でしか成り立たず、ページはここでそれを名指ししていない"),
    (r"the page's loss (.+?) gives the upstream gradient (.+?) its value \(\\partial (.+?) / "
     r"\\partial (.+?)\), in the page's own labels (.+?), a distribution \(one-hot or any\): "
     r"they sum to 1, as the labels of a cross-entropy do",
     r"ページの損失 \1 が上流の勾配 \2 の値（\\partial \3 / \\partial \4）を与える。ラベル \5 は"
     r"ページ独自のもので、分布（one-hot など）として和が 1 になる（交差エントロピーのラベルと"
     r"して）"),
    (r"the page's loss (.+?) gives the upstream gradient (.+?) its value \(\\partial (.+?) / "
     r"\\partial (.+?)\), in the page's own labels (.+)",
     r"ページの損失 \1 が上流の勾配 \2 の値（\\partial \3 / \\partial \4）を与える。ラベル \5 は"
     r"ページ独自のもの"),
    (r"the page writes (.+?) as one row, added to every row \(its shape was not given\): "
     r"checked so",
     r"ページは \1 を 1 行で書き、各行に足している（形は与えられていない）：そのように検査する"),
    (r"'=' before a decimal is read as equal to the places written \((.+)\)",
     r"小数の前の '=' は、書かれた桁までの一致として読む（\1）"),
    (r"line (\d+): (?P<T1>.+)", r"\1 行目：{T1}"),
    (r"lines ([\d, ]+): (?P<T1>.+)", r"\1 行目：{T1}"),
    (r"lines count through the notebook's Markdown cells: (?P<T1>.+)",
     r"行番号はノートブックの Markdown セルを通して数える（{T1}）"),
    (r"cell (\d+) from line (\d+)(?P<T1>, .+)?", r"セル \1 は \2 行目から{T1}"),
    (r", (?P<T1>cell .+)", r"、{T1}"),
    (r"the notebook has no Markdown cell", r"ノートブックに Markdown セルがない"),
    (r"the loss, (.+): the backward pass starts from its gradient; not a claim checked here",
     r"損失 \1：逆伝播はその勾配から始まるので、検査する主張ではない"),
    (r"not read: on this page d marks a differential \(it writes dL, the differential of "
     r"the loss\), not the gradient dX = \\partial L / \\partial X, which symrow checks",
     r"読まない：このページの d は微分形式（損失の微分 dL を書いている）を表し、symrow が"
     r"検査する勾配 dX = \\partial L / \\partial X ではない"),
    (r"not read: one side is the gradient for any upstream gradient, the other has none "
     r"in it: it follows from the page's own loss (.+), which symrow's backward pass leaves "
     r"general",
     r"読まない：片方の辺は任意の上流勾配についての勾配で、もう片方には上流勾配がない。"
     r"ページ自身の損失 \1 から出る式で、symrow の逆伝播は損失を一般のままにしている"),
    (r"the chain rule for (.+) in general \(names this derivation does not have\): a "
     r"statement of the rule, not a claim checked here",
     r"一般の \1 についての連鎖律（この導出にない名前）：規則を述べた行で、検査する主張ではない"),
    (r"read with the summation convention \(as the text states: '(.+)'\): an index "
     r"repeated in a product and not free on the left side is summed over its range",
     r"総和の規約で読んだ（本文がそう述べている：'\1'）：積の中で繰り返され、左辺に現れない"
     r"添字はその範囲で和をとる"),
    (r"read with the summation convention \(the page writes its indices as superscripts, "
     r"as tensor notation does \(line (\d+)\)\): an index repeated in a product and not "
     r"free on the left side is summed over its range",
     r"総和の規約で読んだ（ページはテンソルの記法のように添字を上付きで書く、\1 行目）："
     r"積の中で繰り返され、左辺に現れない添字はその範囲で和をとる"),
    (r"(.+): indices written up, or a power\? the page writes powers too \(line (\d+)\), "
     r"so a superscript of letters is not read as indices",
     r"\1：上付きの添字か、べき乗か？このページはべき乗も書く（\2 行目）ので、文字の上付き"
     r"を添字としては読まない"),
    (r"(.+): one index up on a matrix, where the page writes two: a row, or a power\? not "
     r"read",
     r"\1：添字を二つ書くページで、行列に上付きの添字が一つだけある：行か、べき乗か？読まな"
     r"かった"),
    (r"softmax_(\w'*) of an entry, where (\w'*) is no index of the claim: which entry is "
     r"meant\? not checked",
     r"成分の softmax_\1 だが、\2 はこの主張の添字ではない：どの成分のことか決められない。"
     r"検査しなかった"),
    (r"softmax_(\w'*) of a matrix: which axis (\w'*) runs along is not written; write it "
     r"of an entry, as in (.+); not checked",
     r"行列の softmax_\1：\2 がどの軸に沿うのか書かれていない。\3 のように成分で書く。"
     r"検査しなかった"),
    (r"the index (\w'*) is repeated, but not in every term of a bracket: cannot tell what "
     r"the summation convention sums here",
     r"添字 \1 が括弧の一部の項でだけ繰り返される：総和の規約で何を足すのか決められない"),
    (r"the index (\w'*) occurs (\d+) times in one term: under the summation convention an "
     r"index is summed when it occurs twice",
     r"添字 \1 が一つの項に \2 回現れる：総和の規約では 2 回現れる添字について和をとる"),
    (r"a notation for a gradient \((.+)\): not a claim checked here",
     r"勾配の記法（\1）：検査する主張ではない"),
    (r"a claim about gradients, which this derivation does not derive: not read",
     r"この導出が扱わない勾配についての主張：読まなかった"),
    (r"gives (.+) (?:its|their) values for what follows",
     r"\1 に値を与える（以降もこの値で読む）"),
    (r"takes (.+) equal to (.+) for what follows \(an assumption, not a claim\)",
     r"\1 を \2 に等しいとする（以降の仮定で、主張ではない）"),
    (r"the shape of (.+) as the page writes it \(rows, columns\): (.+), the page's sizes "
     r"for what follows", r"ページが書く \1 の形（行, 列）：\2（以降はこのページの大きさで読む）"),
    (r"the shape of (.+) as the page writes it \(rows, columns\)",
     r"ページが書く \1 の形（行, 列）"),
    (r"one side is a matrix and the other a number, in a claim about entries \(indices "
     r"(.+)\): if an entry of the matrix is meant, write it as one, as in (.+); not checked",
     r"添字 \1 についての主張なのに、片方の辺は行列、もう片方は数である。行列の成分のつもり"
     r"なら \2 のように成分として書く（検査しない）"),
    (r"the page's definition of (.+?): (?P<T1>.+)", r"ページによる \1 の定義：{T1}"),
    (r"(.+?) \(no index\) is read as the matrix (.+?), which the page writes in lowercase",
     r"添字のない \1 は行列 \2 と読む（ページは小文字で書いている）"),
    (r"this line is plain text, with no math markup: it is not judged wrong on a guess at "
     r"what it says; mark the mathematics \(\$\.\.\.\$, \\\[\.\.\.\\\]\) to have it checked",
     r"この行は数式の印のない地の文なので、推測で誤りとはしない。検査するには数式を "
     r"$...$ や \\[...\\] で囲む"),
    (r"which row or entry of (.+?)\? write (.+?) for a row or (.+?) for an entry",
     r"\1 のどの行または成分か分からない。行なら \2、成分なら \3 のように書く"),
    (r"(\\[A-Za-z]+|\\\S) is not supported here", r"\1 にはまだ対応していない"),
    (r"(\\[A-Za-z]+\{[^{}]*\}) is not supported here \(did you mean (.+?)\?\)",
     r"\1 にはまだ対応していない（\2 のことか）"),
    (r"(\\[A-Za-z]+\{[^{}]*\}) is not supported here", r"\1 にはまだ対応していない"),
    (r"the functions symrow knows are softmax, \\exp, \\sqrt, Attention, Concat, diag, and "
     r"ReLU, GELU, \\sigma, \\tanh and \\phi entry by entry",
     r"symrow が知っている関数は softmax, \\exp, \\sqrt, Attention, Concat, diag と、成分ごとの "
     r"ReLU, GELU, \\sigma, \\tanh, \\phi"),
    (r"dots inside a term: write the sum as a_1 \+ a_2 \+ \\cdots \+ a_n",
     r"項の中に点がある：和は a_1 + a_2 + \\cdots + a_n のように書く"),
    (r"index arithmetic needs commas between the indices, as in (.+)",
     r"計算を含む添字は \1 のようにコンマで区切る"),
    (r"(\\[A-Za-z]+) needs its argument in braces", r"\1 の引数は {...} で囲む"),
    (r"\\cdots needs a term before it, as in (.+)", r"\\cdots の前には \1 のように項を書く"),
    (r"\\left\\\{ is not supported; use \( \) or \[ \]",
     r"\\left\\{ には対応していない。( ) か [ ] を使う"),
    (r"cannot read '(.+?)' in an index", r"添字の中の '\1' は読めない"),
    (r"cannot read '(.+?)' as an index", r"'\1' は添字として読めない"),
    (r"dots at entry \((\d+), (\d+)\) of this matrix, outside a row of \\vdots or a "
     r"column of \\cdots",
     r"この行列の成分 (\1, \2) の点は、\\vdots の行にも \\cdots の列にもない"),
    (r"the layout is ambiguous here: the line after the break may start a new equation or "
     r"continue the one above; write \\\\ between equations, or keep one expression on one "
     r"line",
     r"ここは書き方があいまい：改行の後の行は新しい式とも上の式の続きとも読める。式の間には "
     r"\\\\ を書くか、一つの式は一行に書く"),
    (r"a backslash before a space or a line break is not supported here",
     r"空白や改行の前のバックスラッシュにはまだ対応していない"),
    (r"(.+?) takes no sub- or superscript here", r"ここでは \1 に添字や肩字を付けられない"),
    (r"logarithms are not supported", r"対数にはまだ対応していない"),
    (r"(.+?) = (\d+) is a case, not a claim: what follows in its paragraph is checked where "
     r"(.+?) = (\d+)",
     r"\1 = \2 は場合分けで、主張ではない：その段落の続きは \3 = \4 として検査する"),
    (r"the two sides are too long to compare term by term here; the counterexample pins the "
     r"difference down", r"両辺が長すぎるので項ごとには比べない（反例が違いを示す）"),
    (r"(\d+) terms? differs?; too long to show here; the counterexample pins the difference "
     r"down", r"\1 個の項が違う（長すぎるのでここには示さない。反例が違いを示す）"),
    (r"the two sides are not approximately equal: (.+?) and (.+?) differ by more than the "
     r"rounding of the decimals written \((.+)\)",
     r"両辺はほぼ等しいとは言えない：\1 と \2 の差が、書かれた小数の丸め（\3）より大きい"),
    (r"entry (.+?) is not approximately equal: (.+?) and (.+?) differ by more than the "
     r"rounding of the decimals written \((.+)\)",
     r"成分 \1 はほぼ等しいとは言えない：\2 と \3 の差が、書かれた小数の丸め（\4）より大きい"),
    (r"(.+?) is (\d+) x (\d+), so it has no row (\d+) \(check the bounds of the sum\)",
     r"\1 は \2 x \3 なので第 \4 行はない（和の範囲を確かめる）"),
    (r"(.+?) is (\d+) x (\d+), so it has no column (\d+) \(check the bounds of the sum\)",
     r"\1 は \2 x \3 なので第 \4 列はない（和の範囲を確かめる）"),
    (r"the sum over (.+?) on the left does not use \1: it adds (\d+) copies of the same term",
     r"左辺の \1 についての和は \1 を使わない：同じ項を \2 個足している"),
    (r"the sum over (.+?) on the right does not use \1: it adds (\d+) copies of the same term",
     r"右辺の \1 についての和は \1 を使わない：同じ項を \2 個足している"),
    (r"the sum on the left is empty: it adds no terms, so it is 0",
     r"左辺の和は空で、項を 1 つも足さないので 0 になる"),
    (r"the sum on the right is empty: it adds no terms, so it is 0",
     r"右辺の和は空で、項を 1 つも足さないので 0 になる"),
    (r"cannot tell what the dots stand for: (?P<T1>.+)", r"点が何を表すか分からない：{T1}"),
    (r"the (row|column|term) before them and the \1 after them do not have the same form",
     r"点の前と後で形が違う"),
    (r"the (row|column|term) before and after them are the same, no index counts up",
     r"点の前と後が同じで、数えていく添字がない"),
    (r"the first (?:row|column|term) should have numbers where the last has letters, as in "
     r"(.+)", r"最初は数、最後は文字で書く（\1 のように）"),
    (r"the indices of the last (?:row|column|term) do not end at one common value",
     r"最後の添字が一つの値で終わらない"),
    (r"one index counts both down the rows and along the columns",
     r"一つの添字が行方向にも列方向にも数えている"),
    (r"the columns count their rows differently", r"列ごとに行の数え方が違う"),
    (r"the rows count their columns differently", r"行ごとに列の数え方が違う"),
    (r"the second row before \\vdots does not count up by one from the first",
     r"\\vdots の前の 2 行目が 1 行目から 1 つ進んでいない"),
    (r"the Kronecker delta takes two indices, as in (.+)",
     r"クロネッカーのデルタには \1 のように添字が 2 つ要る"),
    (r"unexpected character '(.+?)'", r"読めない文字 '\1'"),
    (r"unexpected '(.+?)'", r"ここでは読めない '\1'"),
    (r"the terms written before the dots run past the end that (?:the shape under the matrix|"
     r"the last term) gives \((\d+)\) at these sizes: the page's sizes are not this "
     r"derivation's; say them \(as in (.+)\) to have it checked",
     r"点の前に書かれた項が、この大きさでの終わり（\1）を越えている。ページの大きさはこの導出の"
     r"ものと違うので、検査するには \2 のように大きさを書く"),
    (r"the upper bound (.+?) of a sum is not a size this check knows; write it as a number "
     r"\((.+?)\) or as one of the sizes",
     r"和の上限 \1 はこの検査が知る大きさではない。数（\2）か既知の大きさで書く"),
    (r"cannot tell what range the index (.+?) runs over; give a sum its bounds, as in (.+)",
     r"添字 \1 の動く範囲が分からない。和には \2 のように範囲を書く"),
    (r"there is nothing on this side of '(.+?)'", r"'\1' のこちら側に何もない"),
    (r"this '(.+?)' has nothing on its left", r"この '\1' の左に何もない"),
    (r"this '(.+?)' has nothing on its right", r"この '\1' の右に何もない"),
    (r"(?P<T1>.+): this paragraph was not read", r"{T1}：この段落は読まなかった"),
    (r"'(.+?)' is never closed", r"'\1' が閉じられていない"),
    (r"\\sum needs its index, as in (.+?) or (\S+)",
     r"\\sum には \1 や \2 のように添字を書く"),
    (r"(\S+) without brackets, and something follows its argument: it is unclear how far "
     r"the argument reaches; write (.+)",
     r"括弧のない \1 の引数の後に何かが続く：引数がどこまでか分からないので、\2 と書く"),
    (r"(\S+) needs its argument in brackets, as in (.+)",
     r"\1 の引数は \2 のように括弧で囲む"),
    (r"write what \\partial/\\partial x takes in brackets",
     r"\\partial/\\partial x が何を微分するかを括弧で囲んで書く"),
    (r"\\ell is not a size of this derivation", r"\\ell はこの導出の大きさではない"),
    (r"the left side is " + _SHAPE + r", not (\d+) x (\d+)",
     r"左辺は \1×\2 行列で、\3×\4 ではない"),
    (r"the left side is " + _SHAPE + r", not a number", r"左辺は \1×\2 行列で、数ではない"),
    (r"not checked: the page's (.+?) stands for two sizes of this derivation here "
     r"\((\d+) and (\d+)\); check it at sizes where they agree",
     r"未検査：ページの \1 はここでこの導出の二つの大きさ（\2 と \3）を表す。一致する大きさで"
     r"検査する"),
    (r"'(.+?)' has nothing to attach to", r"'\1' が付く相手がない"),
    (r"a negative power of a vector \((\d+) x (\d+) matrix, \^(.+?)\): it has no inverse; if "
     r"the power of each entry is meant, symrow does not read it so; not checked",
     r"ベクトル（\1×\2 行列）の負の累乗 ^\3：逆行列はない。成分ごとの累乗の意味なら、symrow は"
     r"そう読まない。検査しない"),
    (r"boxes side by side \(\\boxed\{2\}\\boxed\{3\}\): a row drawn as cells; write it as a "
     r"matrix, as in \\begin\{bmatrix\} 2 & 3 \\end\{bmatrix\}",
     r"枠が横に並んでいる（\\boxed{2}\\boxed{3}）：マス目で描いた行。"
     r"\\begin{bmatrix} 2 & 3 \\end{bmatrix} のように行列で書く"),
    (r"cannot read the bound (.+?); (?P<T1>write the range as .+)",
     r"範囲の端 \1 が読めない。{T1}"),
    (r"write the range as (.+?), (.+?) or (.+?) \(this one reads (.+)\)",
     r"範囲は \1、\2 または \3 と書く（ここは \4 と読める）"),
    (r"'=' inside brackets; symrow compares whole sides of '='",
     r"括弧の中に '=' がある。symrow は '=' の両辺を丸ごと比べる"),
    (r"'&' inside brackets; alignment marks belong outside them",
     r"括弧の中に '&' がある。揃えの記号は括弧の外に書く"),
    (r"the columns of this matrix cannot be told apart: two numbers stand side by side; "
     r"write & between the entries of a row",
     r"この行列の列が区別できない：数が 2 つ並んでいる。行の成分の間には & を書く"),
    (r"the columns of this matrix cannot be told apart: the entries of a row are separated "
     r"by spaces, not by '&'; write & between them",
     r"この行列の列が区別できない：行の成分が & でなく空白で区切られている。間に & を書く"),
    (r"more than one column of \\cdots in this matrix",
     r"この行列には \\cdots の列が 2 つ以上ある"),
    (r"more than one row of \\vdots in this matrix", r"この行列には \\vdots の行が 2 つ以上ある"),
    (r"(.+?) was given above, and this product is undefined at its shapes: read as a remark "
     r"about another convention; not checked",
     r"\1 は上で与えられており、この積はこの形では定義されない。別の規約についての注釈と"
     r"読み、検査しない"),
    (r"(.+?) was given above, and this product is undefined at its shapes: read as the "
     r"page's remark on a wrong reading of the chain rule; not checked",
     r"\1 は上で与えられており、この積はこの形では定義されない。連鎖律の誤った読み方に"
     r"ついてのページの注釈と読み、検査しない"),
    (r"across the chain rule written formally, against (.+?): (?P<T1>.+)",
     r"形式的に書いた連鎖律をはさんで \1 と比べると：{T1}"),
    (r"across the chain rule written formally, against (.+)",
     r"形式的に書いた連鎖律をはさんで \1 と比べた"),
    (r"a Jacobian of a matrix by a matrix, set equal to a value with nothing to compare "
     r"across it: the chain rule's shorthand, not a matrix; a slip in it could not be told, "
     r"so it is not read",
     r"行列の行列によるヤコビアンを値と等しいとしているが、はさんで比べるものがない："
     r"連鎖律の略記で行列ではなく、誤りがあっても分からないので読まない"),
    (r"a Jacobian of a matrix by the matrix (.+?): the chain rule written formally, not a "
     r"product of matrices; not checked",
     r"行列の行列 \1 によるヤコビアン：形式的に書いた連鎖律で、行列の積ではないので"
     r"検査しない"),
    (r"not checked: one side is a number, the other depends on the entries of (.+?), whose "
     r"values are not given \(define them, as in (.+?), or give --values\)",
     r"未検査：片方の辺は数だが、もう片方は値の与えられていない \1 の成分による（\2 のように"
     r"定義するか、--values で与える）"),
    (r"not checked: symrow does not check (.+)", r"未検査：symrow は \1 を検査しない"),
    (r"not checked: numbers for an operand of a derivation with general sizes; check a "
     r"worked example against a concrete derivation",
     r"未検査：大きさが一般の導出のオペランドに数が与えられている。数値例は大きさが具体的な導出と"
     r"照らし合わせる"),
    (r"not checked: a matrix of numbers against general sizes; check a worked example "
     r"against a concrete derivation",
     r"未検査：一般の大きさに対する数の行列。数値例は大きさが具体的な導出と照らし合わせる"),
    (r"not checked: symrow checks memberships in real spaces such as (.+?), not in (.+)",
     r"未検査：symrow が検査する所属は \1 のような実数の空間への所属で、\2 ではない"),
    (r"the page's (.+?) is (.+?) of this derivation, whose (.+?) is (.+?): the page's "
     r"convention, followed in what comes after",
     r"ページの \1 はこの導出の \2（この導出の \3 は \4）：ページの規約として以降も"
     r"この意味で読む"),
    (r"(.+?) = (\d+) is a case the page considers, not a claim checked here \(this "
     r"derivation has (.+?)\)",
     r"\1 = \2 はページが考える一つの場合で、検査する主張ではない（この導出では \3）"),
    (r"(.+?): its definition \(line (\d+)\) could not be read",
     r"\1：その定義（\2 行目）が読めなかった"),
    (r"the page writes (\d+) rows under a (\d+) x (\d+) value",
     r"ページはこの値の下に \1 行と書くが、値は \2 x \3"),
    (r"the page writes (\d+) columns under a (\d+) x (\d+) value",
     r"ページはこの値の下に \1 列と書くが、値は \2 x \3"),
    (r"\\vdots needs rows before and after it \(at the end of a matrix, two rows before it "
     r"and the shape under it, as in (.+)\)",
     r"\\vdots の前後に行が要る（行列の最後に置くなら、その前に 2 行と、行列の下に \1 の"
     r"ような形）"),
    (r"unknown name '(.+?)': this (\w+) derivation knows (?P<T1>.+)",
     r"名前 '\1' はこの導出にない（この \2 の導出が知っている名前：{T1}）"),
    (r"the matrices (.+?), their rows (.+?), their entries (.+?), and the sizes (.*)",
     r"行列 \1、その行 \2、その成分 \3、大きさ \4"),
    (r"(.+?): e with a subscript; its power (.+?) is meant \(with it the step holds\)",
     r"\1：e に下付き添字が付いている。書くつもりだったのはべき \2 である（べきにすれば"
     r"この行は成り立つ）"),
    (r"(.+?): e with a subscript; the powers (.+?) are meant \(with them the step holds\)",
     r"\1：e に下付き添字が付いている。書くつもりだったのはべき \2 である（べきにすれば"
     r"この行は成り立つ）"),
    (r"(.+?): e with a subscript; (?:its power|the powers) (.+?) (?:is|are) meant; with "
     r"(?:it|them) the step is still wrong: (?P<T1>.+)",
     r"\1：e に下付き添字が付いている。書くつもりだったのはべき \2 である。べきにしても"
     r"この行は誤り：{T1}"),
    (r"(.) is read as (.+?), the operand the target applies (\w+) to \(the page's "
     r"(.+?)\); its entries (.+?) as those of (.+?)'s one row, and (.+?) as its length"
     r"(?P<T1> \(\d+\))?",
     r"\1 は \2 と読む（照らし合わせる導出が \3 を取る入力。ページの \4 から）。"
     r"成分 \5 は \6 の1行の成分、\7 はその長さ{T1}と読む"),
    (r"(.) is read as (.+?), the operand the target applies (\w+) to \(the page's "
     r"(.+?)\); its entries (.+?) as those of (.+?)'s one row",
     r"\1 は \2 と読む（照らし合わせる導出が \3 を取る入力。ページの \4 から）。"
     r"成分 \5 は \6 の1行の成分と読む"),
    (r"(.+?) is read as an entry of (.+?): the page writes (.+?) only whole and (.+?) only "
     r"with an index",
     r"\1 は \2 の成分と読む（ページは \3 を全体としてのみ、\4 を添字付きでのみ書く）"),
    (r"an exponent is infinite or undefined", r"指数が無限大か未定義になる"),
    (r" \((\d+)\)", r" \1 "),
    (r"(.+) is read as the page's correction of the side before the arrow",
     r"\1 は、矢印の前の辺をページが書き直したものと読む"),
    (r"softmax\((.+?)\) is read as (.+?), the page's shorthand \(the softmax of one "
     r"number would be 1\)",
     r"softmax(\1) はページの略記として \2 と読む（数1つの softmax なら 1 になる）"),
    (r"a function-style heading: (.+) names a function of the page's own, not one of this "
     r"derivation; not checked",
     r"関数の形の見出し：\1 はページ独自の関数で、この導出の関数ではないので検査しない"),
    (r"a function-style heading: (.+) is not this derivation's result \((.+)\); not checked",
     r"関数の形の見出し：\1 はこの導出の結果（\2）ではないので検査しない"),
    (r"the page's name for the upstream gradient: (.+?) \((.+)\), the one matrix of free "
     r"entries of its shape; followed in what comes after",
     r"ページが上流の勾配に付けた名前：\1（\2）。その形の自由な成分の行列はこれ 1 つなので、"
     r"以降もこの意味で読む"),
    (r"the page's name for the upstream gradient: (.+?), the one matrix of free entries of "
     r"its shape; followed in what comes after",
     r"ページが上流の勾配に付けた名前：\1。その形の自由な成分の行列はこれ 1 つなので、"
     r"以降もこの意味で読む"),
    (r"(.+?), a matrix of free entries of the shape of the upstream gradient (.+?), is read "
     r"as the page's name for it \((.+?)(?: \((.+)\))?\)",
     r"\1 は上流の勾配 \2 と同じ形の、自由な成分の行列なので、ページがそれに付けた名前と"
     r"読む（\3。\4）"),
    (r"the page's (.+?) is (\d+), the count of the places it indexes \(written as an entry's "
     r"index past this derivation's (.+?)\): the page's own size",
     r"ページの \1 は \2：成分の添字としてこの導出の \3 を超えて書かれているので、ページ"
     r"自身の大きさとして、それが添字となる位置の数を取る"),
    (r"the page writes (.+?) by its entries, with two indices; (.+?) with one index is in "
     r"another notation",
     r"ページは \1 を添字 2 つの成分で書いている。添字 1 つの \2 は別の記法である"),
    (r"not checked: (?P<T1>the page writes .+)", r"未検査：{T1}"),
    (r"entry \((\d+), (\d+)\)" + _TWICE,
     r"この大きさでは成分 (\1, \2)が 2 回書かれていて（点の前と後の位置が重なる）、\3 と \4 で"
     r"値が違う"),
    (r"row (\d+)" + _TWICE,
     r"この大きさでは第 \1 行が 2 回書かれていて（点の前と後の位置が重なる）、\2 と \3 で"
     r"値が違う"),
    (r"column (\d+)" + _TWICE,
     r"この大きさでは第 \1 列が 2 回書かれていて（点の前と後の位置が重なる）、\2 と \3 で"
     r"値が違う"),
    (r"term (\d+)" + _TWICE,
     r"この大きさでは第 \1 項が 2 回書かれていて（点の前と後の位置が重なる）、\2 と \3 で"
     r"値が違う"),
    (r"(.+?) is (\d+) x (\d+), and the page writes (.+?) as its last row, where "
     r"this derivation's (.+?) is (\d+): the page's sizes are not this derivation's; not "
     r"checked",
     r"\1 は \2×\3 で、ページは \4 を最後の行の番号として書いているが、この導出の \5 は "
     r"\6 である：ページの大きさの名前はこの導出のものと違うので、検査しない"),
    (r"(.+?) is (\d+) x (\d+), and the page writes (.+?) as its last column, where "
     r"this derivation's (.+?) is (\d+): the page's sizes are not this derivation's; not "
     r"checked",
     r"\1 は \2×\3 で、ページは \4 を最後の列の番号として書いているが、この導出の \5 は "
     r"\6 である：ページの大きさの名前はこの導出のものと違うので、検査しない"),
    (r"the page's upstream gradient (.+), in names of its own: (.+); followed in what "
     r"comes after",
     r"ページ自身の名前による上流の勾配 \1：\2（以降もこの値で読む）"),
    # hints
    (r"the factor 1/(.+?) is missing: the upstream gradient carries it, so every gradient "
     r"computed from it does too",
     r"係数 1/\1 が抜けている：上流の勾配がこの係数を持つので、そこから計算する勾配も"
     r"すべて持つ"),
    (r"the factor 1/(.+?) is here twice: it comes once, with the upstream",
     r"係数 1/\1 が2回掛かっている：この係数は上流の勾配とともに1回だけ入る"),
    (r"the ReLU mask is missing: .+",
     r"ReLU のマスクが抜けている：勾配は ReLU の入力が正のところだけを通って戻るので、"
     r"成分ごとに入力の ReLU′（正なら 1、そうでなければ 0）を掛ける"),
    (r"this is the combine rule (.+); for (.+) the entry is (.+)",
     r"これは結合の規則 \1 である。\2（照合）の成分は \3 になる"),
    (r"this is the match rule (.+); for (.+) the entry is (.+)",
     r"これは照合の規則 \1 である。\2（結合）の成分は \3 になる"),
    (r"the softmax is taken over the wrong axis: row i of (.+?) is a distribution over "
     r"the columns, (.+); this one sums down a column \(over i\)",
     r"softmax を取る向きが違う：\1 の第 i 行は列についての配分で \2 となる。"
     r"この式は列を縦に（i について）足している"),
    (r"the 1/\\sqrt\{d\} is missing on the left: the softmax takes S/\\sqrt\{d\}, so each "
     r"exponent is (.+)",
     r"左辺に 1/\\sqrt{d} が抜けている：softmax は S/\\sqrt{d} に取るので、各指数は \1"),
    (r"the 1/\\sqrt\{d\} is missing on the right: the softmax takes S/\\sqrt\{d\}, so each "
     r"exponent is (.+)",
     r"右辺に 1/\\sqrt{d} が抜けている：softmax は S/\\sqrt{d} に取るので、各指数は \1"),
    (r"the (left|right) side divides by \\sqrt\{d\} once too often: the softmax takes "
     r"S/\\sqrt\{d\} once",
     r"\\sqrt{d} で1回余分に割っている：softmax が取るのは S/\\sqrt{d} の1回だけである"),
    (r"the 1/\\sqrt\{d\} is missing on the right \(here \\sqrt\{d\} = (.+)\)",
     r"右辺に 1/\\sqrt{d} が抜けている（ここでは \\sqrt{d} = \1）"),
    (r"the right side carries a 1/\\sqrt\{d\} that (.+?) does not have here: .+",
     r"右辺には \1 にない 1/\\sqrt{d} が付いている：この導出の S = QK^T は割らずに置き、"
     r"1/\\sqrt{d} は softmax の中で掛ける（P = softmax(S/\\sqrt{d})）"),
    (r"the 1/\\sqrt\{d\} of the scores is missing in the gradient: the scores enter the "
     r"softmax divided by \\sqrt\{d\}, so every gradient back through them carries a factor "
     r"1/\\sqrt\{d\} \(here \\sqrt\{d\} = (.+)\)",
     r"勾配にスコアの 1/\\sqrt{d} が抜けている：スコアは \\sqrt{d} で割ってから softmax に"
     r"入るので、そこを通って戻る勾配にはどれも 1/\\sqrt{d} が掛かる（ここでは \\sqrt{d} = \1）"),
    (r"the gradient carries one 1/\\sqrt\{d\} too many: the scores are divided by "
     r"\\sqrt\{d\} once, so the gradient back through them carries 1/\\sqrt\{d\} once "
     r"\(here \\sqrt\{d\} = (.+)\)",
     r"勾配に 1/\\sqrt{d} が1つ多い：スコアを \\sqrt{d} で割るのは1回だけなので、そこを通って"
     r"戻る勾配に掛かる 1/\\sqrt{d} も1回だけである（ここでは \\sqrt{d} = \1）"),
    (r"the softmax's Jacobian has a second term, -(.+?): each row's gradient is shifted by "
     r"its weighted mean, (.+), not (.+?)(?P<T1>; the 1/\\sqrt\{d\} of the scores is missing "
     r"too)?",
     r"softmax のヤコビアンには2つ目の項 -\1 がある：各行の勾配はその行の重み付き平均だけ"
     r"ずらされ、\3 ではなく \2 となる{T1}"),
    (r"the sign of the softmax Jacobian's second term is wrong: the row's weighted mean is "
     r"subtracted, (.+), not added(?P<T1>; the 1/\\sqrt\{d\} of the scores is missing too)?",
     r"softmax のヤコビアンの2つ目の項の符号が違う：行の重み付き平均は足すのではなく引く"
     r"（\1）{T1}"),
    (r"; the 1/\\sqrt\{d\} of the scores is missing too",
     r"。スコアの 1/\\sqrt{d} も抜けている"),
    (r"; and the softmax takes S/\\sqrt\{d\}, so each exponent is divided by (.+)",
     r"。また softmax は S/\\sqrt{d} に取るので、各指数を \1 で割る"),
    (r"each row of (.+?) is divided by its sum (.+?): (.+), so that the row is a "
     r"distribution(?P<T1>; and the softmax takes S/\\sqrt\{d\}, so each exponent is divided "
     r"by .+)?",
     r"\1 の各行はその和 \2 で割る：\3 として、行が配分になるようにする{T1}"),
    (r"the indices of (.+?) are swapped: with (.+?) written for (.+?) the step would hold",
     r"\1 の添字が入れ替わっている：\3 の代わりに \2 と書くとこの行は成り立つ"),
    (r"the two sides are each other's transpose: .+",
     r"両辺が互いの転置になっている（添字 i と j が入れ替わっている）"),
    (r"the gradient of a bias row sums the gradient over the points, down each column "
     r"\(1\^T times it: a 1 x (\d+) row\); this sums along each row instead \(a (\d+) x 1 "
     r"column\)",
     r"バイアス行の勾配は、勾配を点について（各列を縦に）足したもの（1^T を掛けた 1×\1 の行）"
     r"である。この式は各行を横に足している（\2×1 の列）"),
    (r"the gradient of a bias row is summed over the points \(down each column, a 1 x (\d+) "
     r"row\): the bias is added to every one of the (\d+) points, so its gradient adds up all "
     r"their shares",
     r"バイアス行の勾配は点について（各列を縦に）足す（1×\1 の行）。バイアスは \2 個の点の"
     r"すべてに足されるので、その勾配はすべての点の寄与の和になる"),
    (r"(.+?) is used (\d+) times, and this is the share of one use; its gradient adds the "
     r"shares of all its uses: (.+)",
     r"\1 は \2 回使われていて、これはそのうち1回分の寄与である。勾配はすべての使われ方の"
     r"寄与を足したもの：\3"),
    (r"the factors are in the wrong order or transposed: the gradient of (.+?) has the "
     r"shape of (.+?), and it is (.+), not (.+)",
     r"因子の順序か転置が違う：\1 の勾配は \2 と同じ形で、\4 ではなく \3 である"),
    (r"the gradient of (.+?) is (.+): it takes (.+?) where this has (.+)",
     r"\1 の勾配は \2 である：ここで \4 となっているところは \3 が入る"),
]
