"""Printed labels in Russian, Ukrainian and English (``--lang``).

A layout :class:`~forms.model.Label` carries a key, optionally ``key:argument`` (a seat, an
option); :func:`text` resolves it. Every language has every key (a test checks it).
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("ru", "uk", "en")

_COMMON = {
    "opt:S": "♠", "opt:C": "♣", "opt:D": "♦", "opt:H": "♥", "opt:6": "6", "opt:7": "7",
    "opt:8": "8", "opt:9": "9", "opt:10": "10", "opt:=": "=", "opt:-": "−", "opt:+": "+",
}

LABELS: dict[str, dict[str, str]] = {
    "ru": {
        "title_triangle": "Пулька · преферанс",
        "title_deals": "Контракты и результаты (Кодекс 4.2.11)",
        "header_fields": "Турнир: {tournament}   Тур: {round}   Стол: {table}   Дата: {date}"
                         "   Лист: {page}",
        "seat_name": "{seat} · {name}",
        "calibration_end": "образец цифр:",
        "whists_on": "висты на {arg}",
        "whists": "висты",
        "pool": "пуля",
        "mountain": "гора",
        "terms": "{variant} · {pool} · {stake}",
        "pool_size": "пуля {n}",
        "by_time": "на время",
        "stake": "вист = {stake}",
        "no_stake": "без ставки",
        "signatures": "Подписи:",
        "deal_no": "№ / сдаёт",
        "dealer": "",
        "declarer": "играет",
        "level": "контракт",
        "suit": "масть",
        "call": "вист",
        "call_seat": "ответ {arg}",
        "tricks": "взятки",
        "tricks_seat": "взятки {arg}",
        "talon": "прик.",
        "result": "итог",
        "result_tricks": "взяток",
        "opt:allpass": "Р",
        "opt:misere": "М",
        "opt:NT": "БК",
        "opt:whist": "В",
        "opt:pass": "П",
        "opt:halfwhist": "½",
        "legend": "☒ отметка   ■ отменена",
        "example": "образец",
        "variant:sochi": "Сочи", "variant:leningrad": "Ленинград", "variant:rostov": "Ростов",
        "results_title": "Итог (судья):",
        "judge": "Судья",
        "signatures_title": "Подписи:",
        "instructions": "Как писать\n"
                        "• Одна цифра в клетку; число прижато вправо, лишние клетки слева "
                        "пустые.\n"
                        "• Минус горы — в розовую клетку перед цифрами.\n"
                        "• Запись нарастающим итогом. Ошибку не зачёркивать: следующей "
                        "записью пишется верный итог (Кодекс 4.2.7).\n"
                        "• Без штрафа — пока карандаш в руке (4.2.8); поправить можно до "
                        "заказа следующей игры (4.2.9).\n"
                        "• Отметка — крестик; закрашенная клетка отменяет отметку.\n"
                        "• Сдать судье все страницы, и листы продолжения тоже.",
        "continuation": "продолжение {n}",
    },
    "uk": {
        "title_triangle": "Пулька · преферанс",
        "title_deals": "Контракти та результати (Кодекс 4.2.11)",
        "header_fields": "Турнір: {tournament}   Тур: {round}   Стіл: {table}   Дата: {date}"
                         "   Аркуш: {page}",
        "seat_name": "{seat} · {name}",
        "calibration_end": "зразок цифр:",
        "whists_on": "вісти на {arg}",
        "whists": "вісти",
        "pool": "пуля",
        "mountain": "гора",
        "terms": "{variant} · {pool} · {stake}",
        "pool_size": "пуля {n}",
        "by_time": "на час",
        "stake": "віст = {stake}",
        "no_stake": "без ставки",
        "signatures": "Підписи:",
        "deal_no": "№ / здає",
        "dealer": "",
        "declarer": "грає",
        "level": "контракт",
        "suit": "масть",
        "call": "віст",
        "call_seat": "відп. {arg}",
        "tricks": "взятки",
        "tricks_seat": "взятки {arg}",
        "talon": "прик.",
        "result": "підсумок",
        "result_tricks": "взяток",
        "opt:allpass": "Р",
        "opt:misere": "М",
        "opt:NT": "БК",
        "opt:whist": "В",
        "opt:pass": "П",
        "opt:halfwhist": "½",
        "legend": "☒ позначка   ■ скасована",
        "example": "зразок",
        "variant:sochi": "Сочі", "variant:leningrad": "Ленінград", "variant:rostov": "Ростов",
        "results_title": "Підсумок (суддя):",
        "judge": "Суддя",
        "signatures_title": "Підписи:",
        "instructions": "Як писати\n"
                        "• Одна цифра в клітинку; число притиснуте праворуч, зайві клітинки "
                        "ліворуч порожні.\n"
                        "• Мінус гори — у рожеву клітинку перед цифрами.\n"
                        "• Запис наростаючим підсумком. Помилку не закреслювати: наступним "
                        "записом пишеться правильний підсумок (Кодекс 4.2.7).\n"
                        "• Без штрафу — поки олівець у руці (4.2.8); виправити можна до "
                        "замовлення наступної гри (4.2.9).\n"
                        "• Позначка — хрестик; зафарбована клітинка скасовує позначку.\n"
                        "• Здати судді всі сторінки, і аркуші продовження теж.",
        "continuation": "продовження {n}",
    },
    "en": {
        "title_triangle": "Preferans score sheet (pulka)",
        "title_deals": "Contracts and results (Codex 4.2.11)",
        "header_fields": "Tournament: {tournament}   Round: {round}   Table: {table}"
                         "   Date: {date}   Sheet: {page}",
        "seat_name": "{seat} · {name}",
        "calibration_end": "sample digits:",
        "whists_on": "whists on {arg}",
        "whists": "whists",
        "pool": "pool",
        "mountain": "mountain",
        "terms": "{variant} · {pool} · {stake}",
        "pool_size": "pool {n}",
        "by_time": "by time",
        "stake": "whist = {stake}",
        "no_stake": "no stake",
        "signatures": "Signatures:",
        "deal_no": "No. / dealer",
        "dealer": "",
        "declarer": "declarer",
        "level": "contract",
        "suit": "suit",
        "call": "call",
        "call_seat": "call {arg}",
        "tricks": "tricks",
        "tricks_seat": "tricks {arg}",
        "talon": "talon",
        "result": "result",
        "result_tricks": "tricks",
        "opt:allpass": "AP",
        "opt:misere": "M",
        "opt:NT": "NT",
        "opt:whist": "W",
        "opt:pass": "P",
        "opt:halfwhist": "½",
        "legend": "☒ mark   ■ cancelled",
        "example": "example",
        "variant:sochi": "Sochi", "variant:leningrad": "Leningrad", "variant:rostov": "Rostov",
        "results_title": "Result (judge):",
        "judge": "Judge",
        "signatures_title": "Signatures:",
        "instructions": "How to write\n"
                        "• One digit per box; a number is right-aligned, the spare boxes on "
                        "its left stay empty.\n"
                        "• A mountain's minus goes in the tinted box before its digits.\n"
                        "• Write running totals. Never cross out a mistake: the next entry "
                        "is the right total (Codex 4.2.7).\n"
                        "• No penalty while the pencil is in your hand (4.2.8); a correction "
                        "is possible until the next contract is bid (4.2.9).\n"
                        "• A mark is a cross; a filled box cancels it.\n"
                        "• Hand in every page to the judge, continuation sheets too.",
        "continuation": "continuation {n}",
    },
}


def text(lang: str, key: str, **values: Any) -> str:
    """Return the label ``key`` (``key:arg`` passes ``arg``) in ``lang``, formatted with ``values``.

    >>> text("ru", "whists_on:B")
    'висты на B'
    >>> text("en", "opt:S")
    '♠'
    """
    table = LABELS[lang]
    if key in table:
        return table[key].format(**values)
    if key in _COMMON:
        return _COMMON[key]
    base, _, arg = key.partition(":")
    if base == "opt" and len(arg) == 1:
        return arg
    return table[base].format(arg=arg, **values)
