"""Exporting a game's scoresheet: chips per player after every round, as CSV and as a PDF.

The numbers come from the referee's ledger (`GameSession.round_history`); the PDF is a
QTextDocument (an HTML table) printed by QPdfWriter, so it needs no other package.
"""

from __future__ import annotations

import csv
import html
from pathlib import Path

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

from ui.store import GameSession


def scoresheet_rows(session: GameSession) -> tuple[list[str], list[list[str]]]:
    """Header and rows: "Start", "Round 1", ... then "Now" when a round is in play."""
    players = session.players
    rows = [[label] + [str(bal.get(p, 0)) for p in players]
            for label, bal in session.round_history()]
    return ["", *players], rows


def export_csv(session: GameSession, path: str | Path) -> Path:
    header, rows = scoresheet_rows(session)
    out = Path(path)
    with open(out, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Round" if not h else h for h in header])
        writer.writerows(rows)
        report = session.report()
        if report["violations"]:
            writer.writerow([])
            writer.writerow(["Violation line", "Player", "Rule", "Proof line", "What happened"])
            for v in report["violations"]:
                writer.writerow([v["line"], v["player"], v["rule"], v["proof_line"], v["text"]])
    return out


def scoresheet_html(session: GameSession) -> str:
    header, rows = scoresheet_rows(session)
    report = session.report()
    setup = session.setup
    title = f"Scoresheet — {setup.get('game', '')}"
    e = html.escape
    parts = [f"<h1>{e(title)}</h1>",
             f"<p>Players: {e(', '.join(session.players))}. "
             f"{'Finished.' if report['finished'] else 'Round ' + str(report['round']) + '.'}"
             f"</p>",
             "<table border='1' cellspacing='0' cellpadding='6'>",
             "<tr>" + "".join(f"<th>{e(h or 'Round')}</th>" for h in header) + "</tr>"]
    for row in rows:
        parts.append("<tr>" + "".join(f"<td align='right'>{e(c)}</td>" if i else
                                      f"<td>{e(c)}</td>" for i, c in enumerate(row)) + "</tr>")
    parts.append("</table>")
    if report["violations"]:
        parts.append("<h2>Violations</h2><ul>")
        for v in report["violations"]:
            parts.append(f"<li>line {v['line']}: {e(v['player'])} — {e(v['rule'])}: "
                         f"{e(v['text'])} (proof: line {v['proof_line']})</li>")
        parts.append("</ul>")
    return "\n".join(parts)


def export_pdf(session: GameSession, path: str | Path) -> Path:
    out = Path(path)
    writer = QPdfWriter(str(out))
    writer.setTitle(f"Scoresheet {session.setup.get('game', '')}")
    writer.setCreator("Michigan Companion")
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
    writer.setResolution(150)
    doc = QTextDocument()
    doc.setHtml(scoresheet_html(session))
    doc.print_(writer)  # paginates; QPdfWriter is a QPagedPaintDevice
    return out
