r"""Hand derivations written the way people publish them, with a careful verdict.

Zenn and Qiita pages in Japanese (front matter, ```` ```math ```` fences,
``:::message`` boxes, prose around ``$...$``), Jupyter notebooks (Markdown
cells with a bare ``\begin{align}``), LaTeX articles (``align`` with
``\nonumber`` and ``\label``, ``equation`` with ``split``), Beamer frames
with overlays, and the notations people use (``\top``, ``\mathsf{T}``,
``\intercal``, ``\langle\cdot,\cdot\rangle``, ``\cdot``, comma indices,
``\dfrac``, ``\exp`` and ``e^{}``, column vectors).  Each has the verdict a
careful reader gives and, when it is wrong, the line of its first wrong
step.  Half hold, half are wrong.
"""

from __future__ import annotations

import dataclasses
import json


@dataclasses.dataclass(frozen=True)
class Page:
    id: str
    against: str
    text: str
    verdict: str                 # holds or wrong
    line: int | None = None      # the line of the first wrong step
    says: str | None = None      # a piece of the report's text
    notebook: bool = False       # text is a Jupyter notebook (JSON)


def notebook(*cells: tuple[str, str]) -> str:
    """A notebook's JSON from (kind, source) cells."""
    return json.dumps({"cells": [{"cell_type": kind, "metadata": {},
                                  "source": source.splitlines(True)}
                                 for kind, source in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


ZENN_HEAD = """---
title: "Attentionを行列の「照合」と「結合」で読む"
emoji: "🔍"
type: "tech"
topics: ["機械学習", "transformer"]
published: true
---
"""

PAGES = [
    # == Zenn: $$ blocks, front matter, :::message ======================================
    Page("zenn-attention-steps", "att222", ZENN_HEAD + r"""
## スコアを計算する

クエリとキーの内積を並べたものがスコア行列です。

$$
S = QK^\top
$$

成分で書くと $s_{ij} = \sum_{k=1}^{d} q_{ik} k_{jk}$ となります。

:::message
$d$ はキーの次元で、ここでは $d = 2$ です。
:::

$$
P = \mathrm{softmax}\left(\frac{S}{\sqrt{d}}\right), \qquad O = PV
$$
""", "holds"),
    Page("zenn-keys-and-queries-swapped", "att222", ZENN_HEAD + r"""
## スコア

各クエリ $\boldsymbol{q}_i$ と各キー $\boldsymbol{k}_j$ の内積を取ります。

$$
S = KQ^\top
$$

これを $\sqrt{d}$ で割ってsoftmaxに通します。
""", "wrong", line=14),
    Page("zenn-message-box-then-wrong-entry", "att222", ZENN_HEAD + r"""
:::message alert
この記事では $Q, K, V \in \mathbb{R}^{2 \times 2}$ とします。
:::

1行2列目のスコアは次のとおりです。

$$
s_{12} = q_{11}k_{12} + q_{12}k_{22}
$$
""", "wrong", line=16, says="combine rule"),
    Page("zenn-output-row", "att222", ZENN_HEAD + r"""
出力の $i$ 行目は、値ベクトルを重み $p_{ij}$ で混ぜたものです（結合）。

$$
\boldsymbol{o}_i = \sum_{j=1}^{n} p_{ij} \boldsymbol{v}_j = \boldsymbol{p}_i V
$$

重みは行ごとに足すと1になります：$\sum_{j} p_{ij} = 1$。
""", "holds"),

    # == Qiita: ```math fences, $...$ inline ===========================================
    Page("qiita-fence-combine", "comb23", r"""# 行列積を「結合」として読む

$A$ は $2 \times 3$、$B$ は $3 \times 2$ です。

```math
\begin{align}
C &= AB \\
c_{ij} &= \sum_{k=1}^{3} a_{ik} b_{kj}
\end{align}
```

行ベクトルで書くと

```math
\boldsymbol{c}_i = a_{i1}\boldsymbol{b}_1 + a_{i2}\boldsymbol{b}_2 + a_{i3}\boldsymbol{b}_3
```
""", "holds"),
    Page("qiita-fence-only-wrong", "att222", r"""# Attentionを手で計算してみた

$Q$ と $K$ から $S$ を作ります。

```math
S = QK^T = \begin{bmatrix}
q_{11}k_{11} + q_{12}k_{12} & q_{11}k_{21} + q_{12}k_{22} \\
q_{21}k_{11} + q_{22}k_{12} & q_{21}k_{21} + q_{22}k_{12}
\end{bmatrix}
```

あとはこれをsoftmaxに入れるだけです。
""", "wrong", line=6),
    Page("qiita-identity-example", "att222", r"""# 具体的な数値で確かめる

簡単のため $Q = K = I$ とします。

```math
Q = K = \begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}
```

```math
S = QK^\top = \begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}
```

1行目のsoftmaxは

```math
p_{11} = \frac{e^{1/\sqrt{2}}}{e^{1/\sqrt{2}} + e^{0}}, \quad p_{12} = \frac{1}{e^{1/\sqrt{2}} + 1}
```
""", "holds"),
    Page("qiita-identity-wrong-scores", "att222", r"""# 数値例

$Q = K = I$ とすると

```math
S = QK^\top = \begin{pmatrix} 1 & 1 \\ 1 & 1 \end{pmatrix}
```
""", "wrong", line=6),
    Page("qiita-gitlab-inline-math", "match22", r"""# 照合 AB^T

内積を並べると $`C = AB^\top`$ で、成分は $`c_{ij} = \sum_k a_{ik} b_{jk}`$ です。

`C = A @ B.T` と書くのと同じです。
""", "holds"),
    Page("qiita-match-as-combine", "match22", r"""# 照合

```math
c_{ij} = \sum_{k=1}^{2} a_{ik} b_{kj}
```
""", "wrong", line=4, says="combine rule"),
    Page("qiita-approx-wrong", "att222", r"""# 数値で確認

```math
Q = K = I
```

```math
p_{11} \approx 0.60
```
""", "wrong", line=8),
    Page("qiita-html-comment-hides-draft", "att222", r"""# スコア

<!-- 下書き: S = KQ^T だと思っていたが違った
$$S = KQ^\top$$
-->

$$S = QK^\top$$
""", "holds"),
    Page("qiita-numbers-combine-wrong", "comb22", r"""# 2×2の例

```math
A = \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}, \quad
B = \begin{pmatrix} 5 & 6 \\ 7 & 8 \end{pmatrix}
```

```math
AB = \begin{pmatrix} 19 & 22 \\ 43 & 51 \end{pmatrix}
```
""", "wrong", line=9),
    Page("qiita-numbers-combine", "comb22", r"""# 2×2の例

```math
A = \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}, \quad
B = \begin{pmatrix} 5 & 6 \\ 7 & 8 \end{pmatrix}
```

```math
C = AB = \begin{pmatrix} 1\cdot 5 + 2 \cdot 7 & 1 \cdot 6 + 2 \cdot 8 \\ 3 \cdot 5 + 4 \cdot 7
& 3 \cdot 6 + 4 \cdot 8 \end{pmatrix} = \begin{pmatrix} 19 & 22 \\ 43 & 50 \end{pmatrix}
```
""", "holds"),

    # == Jupyter notebooks ==============================================================
    Page("jupyter-align-cells", "att222", notebook(
        ("markdown", "# Self-attention by hand\n\nThe scores are inner products."),
        ("code", "import numpy as np\nS = Q @ K.T"),
        ("markdown", "\\begin{align}\ns_{ij} &= \\boldsymbol{q}_i \\cdot \\boldsymbol{k}_j "
                     "\\\\\n&= \\sum_{t=1}^{d} q_{it} k_{jt}\n\\end{align}"),
        ("markdown", "and the weights are $P = \\operatorname{softmax}(S / \\sqrt{d})$.")),
        "holds", notebook=True),
    Page("jupyter-wrong-output", "att222", notebook(
        ("markdown", "## Output"),
        ("markdown", "\\begin{align}\no_{11} &= p_{11} v_{11} + p_{12} v_{12}\n"
                     "\\end{align}")),
        "wrong", line=4, notebook=True),
    Page("jupyter-combine-cells", "comb23", notebook(
        ("markdown", "Row $i$ of $C$ mixes the rows of $B$:"),
        ("markdown", "$$\\mathbf{c}_i = \\sum_{j=1}^{3} a_{ij} \\mathbf{b}_j$$"),
        ("code", "C = A @ B")),
        "holds", notebook=True),
    Page("jupyter-scale-forgotten", "att222", notebook(
        ("markdown", "\\begin{equation}\np_{12} = \\frac{e^{s_{12}}}{e^{s_{11}} + e^{s_{12}}}"
                     "\n\\end{equation}")),
        "wrong", line=2, says="1/\\sqrt{d} is missing", notebook=True),

    # == LaTeX articles =================================================================
    Page("article-align-nonumber", "comb23", r"""\documentclass{article}
\usepackage{amsmath,bm}
\begin{document}
\section{Combining rows}
Let $A \in \mathbb{R}^{2 \times 3}$ and $B \in \mathbb{R}^{3 \times 2}$.
\begin{align}
C &= AB \label{eq:c} \\
  &= \begin{pmatrix} \bm{a}_1 B \\ \bm{a}_2 B \end{pmatrix} \nonumber \\
c_{ij} &= \sum_{k=1}^{3} a_{ik} b_{kj} \nonumber
\end{align}
\end{document}
""", "holds"),
    Page("article-match-transpose-forgotten", "match23", r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
The match of $A$ and $B$ collects all inner products:
\begin{align}
C &= AB \nonumber \\
c_{ij} &= \sum_{k=1}^{3} a_{ik} b_{jk}
\end{align}
\end{document}
""", "wrong", line=6),
    Page("article-split-output", "att222", r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\begin{equation}
\begin{split}
\mathbf{o}_1 &= p_{11}\mathbf{v}_1 + p_{12}\mathbf{v}_2 \\
             &= \begin{pmatrix} p_{11}v_{11} + p_{12}v_{21} & p_{11}v_{12} + p_{12}v_{22}
                \end{pmatrix}
\end{split}
\end{equation}
\end{document}
""", "holds"),
    Page("article-split-wrong", "att222", r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\begin{equation}
\begin{split}
\mathbf{o}_2 &= p_{21}\mathbf{v}_1 + p_{22}\mathbf{v}_2 \\
             &= \begin{pmatrix} p_{21}v_{11} + p_{22}v_{21} & p_{21}v_{12} + p_{22}v_{12}
                \end{pmatrix}
\end{split}
\end{equation}
\end{document}
""", "wrong", line=7),
    Page("article-gradient-notation", "att222", r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
We write $\bar{Z} = \partial L / \partial Z$ for the gradient of a loss $L$.
The forward pass is
\begin{align}
S &= QK^\top, & P &= \operatorname{softmax}\!\left(\tfrac{S}{\sqrt{d}}\right), & O &= PV.
\end{align}
\end{document}
""", "holds"),
    Page("article-attention-heading", "att222", r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\begin{equation}
\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d_k}}\right) V
\end{equation}
\end{document}
""", "holds"),
    Page("article-causal-empty-sum", "att222c", r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
With the causal mask, token $i$ only sees the tokens before it:
\begin{equation}
\mathbf{o}_i = \sum_{j=1}^{i-1} p_{ij}\mathbf{v}_j
\end{equation}
\end{document}
""", "wrong", line=6),
    Page("article-causal-sum", "att222c", r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
With the causal mask, token $i$ sees itself and the tokens before it:
\begin{equation}
\mathbf{o}_i = \sum_{j=1}^{i} p_{ij}\mathbf{v}_j, \qquad i \in \{1, 2\}
\end{equation}
\end{document}
""", "holds"),

    # == Beamer ============================================================================
    Page("beamer-overlays", "att222", r"""\begin{frame}{Scores $\to$ weights $\to$ outputs}
\begin{columns}
\begin{column}{0.5\textwidth}
\begin{block}{Match}
\[ \alert{S} = QK^\top \]
\end{block}
\pause
\only<2->{\[ s_{ij} = \sum_{t=1}^{d} q_{it} k_{jt} \]}
\end{column}
\begin{column}{0.5\textwidth}
\uncover<3->{\[ P = \operatorname{softmax}\left(S/\sqrt{d}\right) \]}
\visible<4>{\[ O = PV \]}
\end{column}
\end{columns}
\end{frame}
""", "holds"),
    Page("beamer-wrong-under-overlay", "att222", r"""\begin{frame}{Distribute}
\begin{itemize}
\item<1-> Each row of $P$ is a distribution.
\item<2-> \only<2->{$p_{ij} = \dfrac{e^{s_{ij}/\sqrt{d}}}{\sum_{l=1}^{n} e^{s_{lj}/\sqrt{d}}}$}
\end{itemize}
\end{frame}
""", "wrong", line=4, says="wrong axis"),
    Page("beamer-block-combine", "comb23", r"""\begin{frame}
\frametitle{Combine: $A \to C$}
\begin{block}{Row by row}
\[ \boldsymbol{c}_1 = a_{11}\boldsymbol{b}_1 + a_{12}\boldsymbol{b}_2 + a_{13}\boldsymbol{b}_3 \]
\end{block}
\pause
\begin{alertblock}{Entry by entry}
\[ c_{12} = a_{11}b_{12} + a_{12}b_{22} + a_{13}b_{32} \]
\end{alertblock}
\end{frame}
""", "holds"),
    Page("beamer-combine-wrong-row", "comb23", r"""\begin{frame}{Combine}
\[ \boldsymbol{c}_2 = a_{21}\boldsymbol{b}_1 + a_{22}\boldsymbol{b}_1 + a_{23}\boldsymbol{b}_3 \]
\pause
\[ C = AB \]
\end{frame}
""", "wrong", line=2),

    # == notations ==========================================================================
    Page("notation-transposes", "att222", r"""
$$S = QK^{\top} = QK^{\mathsf{T}} = QK^\intercal = Q K^{T}$$
""", "holds"),
    Page("notation-transpose-wrong-side", "att222", r"""
$$S = Q^{\mathsf T} K$$
""", "wrong", line=2),
    Page("notation-angle-brackets", "att222", r"""
$$s_{12} = \langle \boldsymbol{q}_1, \boldsymbol{k}_2 \rangle = q_{11}k_{21} + q_{12}k_{22}$$
""", "holds"),
    Page("notation-angle-wrong", "att222", r"""
$$s_{21} = \left\langle \boldsymbol{q}_1, \boldsymbol{k}_2 \right\rangle$$
""", "wrong", line=2),
    Page("notation-cdot-comma-indices", "att222", r"""
$$s_{1,2} = \mathbf{q}_1 \cdot \mathbf{k}_2 = q_{1,1}\,k_{2,1} + q_{1,2}\,k_{2,2}$$
""", "holds"),
    Page("notation-comma-indices-wrong", "att222", r"""
$$s_{2,1} = q_{2,1}\,k_{1,1} + q_{2,2}\,k_{2,2}$$
""", "wrong", line=2),
    Page("notation-dfrac-exp", "att222", r"""
$$p_{ij} = \dfrac{\exp\left(s_{ij}/\sqrt{d}\right)}{\sum_{l=1}^{n} \exp\left(s_{il}/\sqrt{d}\right)}$$
""", "holds"),
    Page("notation-dfrac-exp-missing-term", "att222", r"""
$$p_{21} = \dfrac{\exp(s_{21}/\sqrt{2})}{\exp(s_{21}/\sqrt{2}) + \exp(s_{12}/\sqrt{2})}$$
""", "wrong", line=2),
    Page("notation-e-power", "att222", r"""
$$p_{11} = \frac{e^{s_{11}/\sqrt{2}}}{e^{s_{11}/\sqrt{2}} + e^{s_{12}/\sqrt{2}}}$$
""", "holds"),
    Page("notation-softmax-sum-ignores-index", "att222", r"""
$$p_{ij} = \frac{e^{s_{ij}/\sqrt{d}}}{\sum_{j'=1}^{n} e^{s_{ij}/\sqrt{d}}}$$
""", "wrong", line=2, says="does not use j'"),
    # the scores defined after their scaling are the page's convention (issue 25): a
    # definition followed on the lines after it, not a wrong step; its softmax then
    # taken without a second scaling holds
    Page("notation-extra-scaling-followed", "att222", r"""
$$s_{ij} = \frac{\boldsymbol{q}_i \cdot \boldsymbol{k}_j}{\sqrt{d}}, \quad
p_{ij} = \frac{e^{s_{ij}}}{\sum_{k=1}^{2} e^{s_{ik}}}$$
""", "holds"),
    # ... but scaled twice it is wrong at the softmax
    Page("notation-extra-scaling-twice", "att222", r"""
$$s_{ij} = \frac{\boldsymbol{q}_i \cdot \boldsymbol{k}_j}{\sqrt{d}}, \quad
p_{ij} = \frac{e^{s_{ij}/\sqrt{d}}}{\sum_{k=1}^{2} e^{s_{ik}/\sqrt{d}}}$$
""", "wrong", line=3),
    Page("notation-left-right-big", "att222", r"""
\[ O = \operatorname{softmax}\!\left( \frac{Q\,K^{\top}}{\sqrt{d}} \right) V
     = \bigl( \operatorname{softmax}(S/\sqrt{d}) \bigr) V = P\,V \]
""", "holds"),
    Page("notation-output-match-for-combine", "att222", r"""
\[ o_{ij} = \sum_{k=1}^{n} p_{ik} v_{jk} \]
""", "wrong", line=2, says="match rule"),
    Page("notation-row-sums-ones", "att222", r"""
The rows of $P$ sum to one: $P\mathbf{1} = \mathbf{1}$.
""", "holds"),
    Page("notation-row-sums-wrong", "att222", r"""
The rows of $P$ sum to one: $P\mathbf{1} = 2\,\mathbf{1}$.
""", "wrong", line=2),
    Page("notation-identity-times", "att222", r"""
Take $Q = I$. Then $S = QK^\top = K^\top$.
""", "holds"),
    Page("notation-number-without-values", "att222", r"""
The diagonal scores are one: $s_{11} = 1$.
""", "wrong", line=2),

    Page("notation-annotated-steps", "att222", r"""
$$S \stackrel{\text{def}}{=} \underbrace{QK^\top}_{\text{照合}}, \qquad
O = \underbrace{\operatorname{softmax}(S/\sqrt{d})}_{P}\,V = \boxed{PV}$$
""", "holds"),
    Page("notation-annotated-wrong", "att222", r"""
$$O \overset{\text{(3)}}{=} \underbrace{\operatorname{softmax}(S/\sqrt{d})}_{\text{配分}}\,V^\top$$
""", "wrong", line=2),

    # == column-vector convention ============================================================
    Page("column-stated-ja", "att222", r"""# 列ベクトルで書く

ここでは $\boldsymbol{q}_i, \boldsymbol{k}_j, \boldsymbol{v}_j$ はすべて列ベクトルとします。

$$
s_{ij} = \boldsymbol{q}_i^\top \boldsymbol{k}_j, \qquad
\boldsymbol{o}_i = \sum_{j=1}^{n} p_{ij}\boldsymbol{v}_j = V^\top \boldsymbol{p}_i
$$
""", "holds"),
    Page("column-inferred", "att222", r"""
\[ s_{ij} = \mathbf{q}_i^{\mathsf T}\mathbf{k}_j = \sum_{t=1}^{d} q_{it} k_{jt} \]
""", "holds"),
    Page("column-stated-wrong", "att222", r"""Vectors are column vectors throughout.
\[ \mathbf{o}_i = V \mathbf{p}_i \]
""", "wrong", line=2),
    Page("column-inferred-wrong-entry", "att222", r"""
\[ s_{12} = \mathbf{q}_1^\top \mathbf{k}_2 = q_{11}k_{21} + q_{12}k_{21} \]
""", "wrong", line=2),

    # == layout ==============================================================================
    Page("layout-side-by-side-hspace", "lin22", r"""
\[ X = \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix} \hspace{2pc}
   W = \begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix} \]
\[ Y = XW = \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix} \]
""", "holds"),
    Page("layout-side-by-side-wrong", "lin22", r"""
\[ X = \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix} ,\; W = \begin{pmatrix} 0 & 1 \\ 1 & 0
\end{pmatrix} \]
\[ Y = XW = \begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix} \]
""", "wrong", line=4),
    Page("layout-range-note", "att222", r"""
\[ s_{ij} = \sum_{k=1}^{d} q_{ik} k_{jk}, \quad i, j \in \{1, 2\} \]
""", "holds"),
    Page("layout-prose-for-every", "att222", r"""
For every $i \in \{1, 2\}$ the weights of row $i$ add up to one,
$\sum_{j=1}^{2} p_{ij} = 1$, and $p_{ij} > 0$.
""", "holds"),
    Page("layout-range-note-wrong", "att222", r"""
\[ s_{ij} = \sum_{k=1}^{d} q_{ik} k_{kj}, \quad i, j \in \{1, 2\} \]
""", "wrong", line=2),

    # == general sizes ============================================================================
    Page("general-combine-dots", "combgen", r"""
\[ c_{ij} = a_{i1} b_{1j} + a_{i2} b_{2j} + \cdots + a_{i\ell} b_{\ell j}
          = \sum_{k=1}^{\ell} a_{ik} b_{kj} \]
""", "holds"),
    Page("general-combine-wrong-bound", "combgen", r"""
\[ c_{ij} = \sum_{k=1}^{n} a_{ik} b_{kj} \]
""", "wrong", line=2),

    Page("general-case-in-prose-ja", "combgen", r"""# 行列積

$c_{ij} = \sum_{k=1}^{\ell} a_{ik} b_{kj}$ です。

> 注: $\ell = 3$ のとき $c_{ij} = a_{i1}b_{1j} + a_{i2}b_{2j} + a_{i3}b_{3j}$。
""", "holds"),
    Page("general-case-in-prose-wrong", "combgen", r"""For $\ell = 3$ this reads
$c_{ij} = a_{i1}b_{1j} + a_{i2}b_{2j}$.
""", "wrong", line=2),
    Page("beamer-onslide-in-align", "att222", r"""\begin{frame}[t]{Step by step}
\begin{align*}
S &= QK^{\top} \tag{match} \\[4pt]
\intertext{then each row becomes a distribution}
P &= \operatorname{softmax}\bigl(S/\sqrt{d}\bigr) \\
\onslide<3->{O &= PV} \notag
\end{align*}
\end{frame}
""", "holds"),
    Page("beamer-onslide-in-align-wrong", "att222", r"""\begin{frame}[t]{Step by step}
\begin{align*}
S &= QK^{\top} \\
\onslide<2->{O &= VP}
\end{align*}
\end{frame}
""", "wrong", line=4),

    # == more pages as people write them =====================================================
    Page("qiita-softmax-dk", "att222", r"""# Scaled Dot-Product Attention

論文の式そのままです。

```math
\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)V
```

$d_k = 2$ なので $\sqrt{d_k} = \sqrt{2}$ で割ります。
""", "holds"),
    Page("zenn-combine-rows-list", "comb23", ZENN_HEAD + r"""
結合 $C = AB$ の行は、$B$ の行の重み付き和です。

- 1行目: $\boldsymbol{c}_1 = a_{11}\boldsymbol{b}_1 + a_{12}\boldsymbol{b}_2 + a_{13}\boldsymbol{b}_3$
- 2行目: $\boldsymbol{c}_2 = a_{21}\boldsymbol{b}_1 + a_{22}\boldsymbol{b}_2 + a_{23}\boldsymbol{b}_3$
""", "holds"),
    Page("zenn-combine-rows-list-wrong", "comb23", ZENN_HEAD + r"""
結合 $C = AB$ の行は、$B$ の行の重み付き和です。

- 1行目: $\boldsymbol{c}_1 = a_{11}\boldsymbol{b}_1 + a_{12}\boldsymbol{b}_2 + a_{13}\boldsymbol{b}_3$
- 2行目: $\boldsymbol{c}_2 = a_{21}\boldsymbol{b}_1 + a_{22}\boldsymbol{b}_2 + a_{21}\boldsymbol{b}_3$
""", "wrong", line=12),
    Page("match-rows-qiita", "match23", r"""# 照合

```math
C = AB^\top = \begin{bmatrix}
\boldsymbol{a}_1 \cdot \boldsymbol{b}_1 & \boldsymbol{a}_1 \cdot \boldsymbol{b}_2 \\
\boldsymbol{a}_2 \cdot \boldsymbol{b}_1 & \boldsymbol{a}_2 \cdot \boldsymbol{b}_2
\end{bmatrix}
```
""", "holds"),
    Page("match-operands-swapped", "match23", r"""# 照合

```math
C = BA^\top
```
""", "wrong", line=4),
    Page("causal-mask-wrong", "att222c", r"""
\[ M = \begin{pmatrix} 0 & 0 \\ -\infty & 0 \end{pmatrix} \]
""", "wrong", line=2),
    Page("causal-mask", "att222c", r"""
\[ M = \begin{pmatrix} 0 & -\infty \\ 0 & 0 \end{pmatrix}, \qquad
   M_{ij} = \begin{cases} 0 & j \le i \\ -\infty & \text{otherwise} \end{cases} \]
""", "holds"),
    Page("output-transpose-wrong", "att222", r"""
\[ O = P V^\intercal \]
""", "wrong", line=2),
]
