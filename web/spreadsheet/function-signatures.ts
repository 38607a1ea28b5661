import type { EditorLanguage } from '../../src/model/editor-boot.js';

/**
 * The arguments of everyday functions, as the formula hints show them while a formula is typed (`=SUMIF(` shows
 * `SUMIF(range, criteria, [sum_range])`, the argument being typed in bold). Names follow Excel's own; `[x]` is
 * optional and `…` repeats. A function of the engine without an entry here is offered with its name alone: the
 * list of functions is the engine's (FUNCTIONS), this table only spells their arguments.
 */
const SIGNATURES = `
ABS(number)
AND(logical1, [logical2], …)
AVERAGE(number1, [number2], …)
AVERAGEIF(range, criteria, [average_range])
AVERAGEIFS(average_range, criteria_range1, criteria1, [criteria_range2, criteria2], …)
CEILING(number, significance)
CHAR(number)
CHOOSE(index_num, value1, [value2], …)
CHOOSECOLS(array, col_num1, [col_num2], …)
CHOOSEROWS(array, row_num1, [row_num2], …)
CLEAN(text)
CODE(text)
COLUMN([reference])
COLUMNS(array)
CONCAT(text1, [text2], …)
CONCATENATE(text1, [text2], …)
COS(number)
COUNT(value1, [value2], …)
COUNTA(value1, [value2], …)
COUNTBLANK(range)
COUNTIF(range, criteria)
COUNTIFS(criteria_range1, criteria1, [criteria_range2, criteria2], …)
DATE(year, month, day)
DATEDIF(start_date, end_date, unit)
DATEVALUE(date_text)
DAY(serial_number)
DAYS(end_date, start_date)
DEGREES(angle)
EDATE(start_date, months)
EOMONTH(start_date, months)
EXACT(text1, text2)
EXP(number)
FIND(find_text, within_text, [start_num])
FIXED(number, [decimals], [no_commas])
FLOOR(number, significance)
FV(rate, nper, pmt, [pv], [type])
HLOOKUP(lookup_value, table_array, row_index_num, [range_lookup])
HOUR(serial_number)
IF(logical_test, value_if_true, [value_if_false])
IFERROR(value, value_if_error)
IFNA(value, value_if_na)
IFS(logical_test1, value_if_true1, [logical_test2, value_if_true2], …)
INDEX(array, row_num, [column_num])
INDIRECT(ref_text, [a1])
INT(number)
IPMT(rate, per, nper, pv, [fv], [type])
IRR(values, [guess])
ISBLANK(value)
ISERROR(value)
ISNA(value)
ISNUMBER(value)
ISTEXT(value)
LARGE(array, k)
LEFT(text, [num_chars])
LEN(text)
LN(number)
LOG(number, [base])
LOG10(number)
LOOKUP(lookup_value, lookup_vector, [result_vector])
LOWER(text)
MATCH(lookup_value, lookup_array, [match_type])
MAX(number1, [number2], …)
MAXIFS(max_range, criteria_range1, criteria1, [criteria_range2, criteria2], …)
MEDIAN(number1, [number2], …)
MID(text, start_num, num_chars)
MIN(number1, [number2], …)
MINIFS(min_range, criteria_range1, criteria1, [criteria_range2, criteria2], …)
MINUTE(serial_number)
MOD(number, divisor)
MONTH(serial_number)
MROUND(number, multiple)
NETWORKDAYS(start_date, end_date, [holidays])
NOT(logical)
NOW()
NPER(rate, pmt, pv, [fv], [type])
NPV(rate, value1, [value2], …)
OFFSET(reference, rows, cols, [height], [width])
OR(logical1, [logical2], …)
PI()
PMT(rate, nper, pv, [fv], [type])
POWER(number, power)
PPMT(rate, per, nper, pv, [fv], [type])
PRODUCT(number1, [number2], …)
PROPER(text)
PV(rate, nper, pmt, [fv], [type])
QUOTIENT(numerator, denominator)
RADIANS(angle)
RAND()
RANDBETWEEN(bottom, top)
RANK(number, ref, [order])
RATE(nper, pmt, pv, [fv], [type], [guess])
REPLACE(old_text, start_num, num_chars, new_text)
REPT(text, number_times)
RIGHT(text, [num_chars])
ROUND(number, num_digits)
ROUNDDOWN(number, num_digits)
ROUNDUP(number, num_digits)
ROW([reference])
ROWS(array)
SEARCH(find_text, within_text, [start_num])
SECOND(serial_number)
SEQUENCE(rows, [columns], [start], [step])
SIGN(number)
SIN(number)
SMALL(array, k)
SORT(array, [sort_index], [sort_order], [by_col])
SQRT(number)
STDEV(number1, [number2], …)
STDEV.P(number1, [number2], …)
STDEV.S(number1, [number2], …)
SUBSTITUTE(text, old_text, new_text, [instance_num])
SUBTOTAL(function_num, ref1, [ref2], …)
SUM(number1, [number2], …)
SUMIF(range, criteria, [sum_range])
SUMIFS(sum_range, criteria_range1, criteria1, [criteria_range2, criteria2], …)
SUMPRODUCT(array1, [array2], …)
SWITCH(expression, value1, result1, [value2, result2], …, [default])
TAN(number)
TEXT(value, format_text)
TEXTJOIN(delimiter, ignore_empty, text1, [text2], …)
TIME(hour, minute, second)
TODAY()
TRANSPOSE(array)
TRIM(text)
TRUNC(number, [num_digits])
UNIQUE(array, [by_col], [exactly_once])
UPPER(text)
VALUE(text)
VAR(number1, [number2], …)
VLOOKUP(lookup_value, table_array, col_index_num, [range_lookup])
WEEKDAY(serial_number, [return_type])
WEEKNUM(serial_number, [return_type])
WORKDAY(start_date, days, [holidays])
XLOOKUP(lookup_value, lookup_array, return_array, [if_not_found], [match_mode], [search_mode])
XMATCH(lookup_value, lookup_array, [match_mode], [search_mode])
YEAR(serial_number)
YEARFRAC(start_date, end_date, [basis])
`;

const TABLE: ReadonlyMap<string, readonly string[]> = new Map(
  SIGNATURES.trim()
    .split('\n')
    .map((line) => {
      const open = line.indexOf('(');
      const inside = line.slice(open + 1, -1).trim();
      return [line.slice(0, open), inside === '' ? [] : inside.split(', ')] as const;
    }),
);

/**
 * The argument names in simplified Chinese, in the way Chinese editions of spreadsheets name them (`number` 数值,
 * `criteria` 条件); a number after a name (`number1`) and the brackets of an optional one are kept. Every name the
 * table uses has one (a test checks).
 */
const CHINESE: ReadonlyMap<string, string> = new Map(Object.entries({
  a1: 'A1 样式', angle: '角度', array: '数组', average_range: '求平均值区域', base: '底数', basis: '日计数基准', bottom: '下限', by_col: '按列',
  col_index_num: '列序数', col_num: '列号', cols: '列数', column_num: '列号', columns: '列数', criteria: '条件', criteria_range: '条件区域',
  date_text: '日期文本', day: '日', days: '天数', decimals: '小数位数', default: '默认值', delimiter: '分隔符', denominator: '分母',
  divisor: '除数', end_date: '终止日期', exactly_once: '仅出现一次', expression: '表达式', find_text: '查找文本', format_text: '格式文本',
  function_num: '函数序号', fv: '终值', guess: '预估值', height: '高度', holidays: '假日', hour: '小时', if_not_found: '未找到时',
  ignore_empty: '忽略空值', index_num: '索引号', instance_num: '替换序号', k: 'k', logical: '逻辑值', logical_test: '测试条件',
  lookup_array: '查找数组', lookup_value: '查找值', lookup_vector: '查找向量', match_mode: '匹配模式', match_type: '匹配类型',
  max_range: '最大值区域', min_range: '最小值区域', minute: '分', month: '月', months: '月数', multiple: '倍数', name: '名称',
  new_text: '新文本', no_commas: '无逗号', nper: '期数', num_chars: '字符个数', num_digits: '位数', number: '数值',
  number_times: '重复次数', numerator: '分子', old_text: '原文本', order: '排位方式', per: '期次', pmt: '每期付款', power: '幂',
  pv: '现值', range: '区域', range_lookup: '匹配方式', rate: '利率', ref: '引用', ref_text: '引用文本', reference: '引用',
  result: '结果', result_vector: '结果向量', return_array: '返回数组', return_type: '返回类型', row_index_num: '行序数',
  row_num: '行号', rows: '行数', search_mode: '搜索模式', second: '秒', serial_number: '日期值', significance: '基数',
  sort_index: '排序依据', sort_order: '排序顺序', start: '起始值', start_date: '开始日期', start_num: '开始位置', step: '步长',
  sum_range: '求和区域', table_array: '数据表', text: '文本', top: '上限', type: '类型', unit: '单位', value: '值',
  value_if_error: '错误时的值', value_if_false: '假值', value_if_na: '为 #N/A 时的值', value_if_true: '真值', values: '值组',
  width: '宽度', within_text: '要搜索的文本', year: '年',
}));

/** An argument as the table spells it (`[criteria_range2`, `sum_range]`, `…`) in the page's language. */
function translated(argument: string, language: EditorLanguage): string {
  if (language === 'en') return argument;
  const match = /^(\[?)([a-z_]+?)(\d*)(\]?)$/.exec(argument);
  if (!match) return argument;
  const [, open, base = '', digits, close] = match;
  // a name that ends in a digit of its own (INDIRECT's `a1`) before a name numbered in a series (`number1`)
  const whole = CHINESE.get(`${base}${digits}`);
  if (whole) return `${open}${whole}${close}`;
  const chinese = CHINESE.get(base);
  return chinese ? `${open}${chinese}${digits}${close}` : argument;
}

/** The arguments of function `name` (upper case) as Excel names them, in the page's language; undefined when the table has none. */
export function argumentsOf(name: string, language: EditorLanguage): readonly string[] | undefined {
  return TABLE.get(name)?.map((argument) => translated(argument, language));
}

/** Argument names of the table with no Chinese name (a test keeps this empty). */
export function untranslatedArguments(): string[] {
  const names = new Set([...TABLE.values()].flat().map((argument) => /^\[?([a-z_]+?)(\d*)\]?$/.exec(argument)).filter((match) => match !== null));
  return [...names].filter(([, base = '', digits]) => !CHINESE.has(base) && !CHINESE.has(`${base}${digits}`)).map(([whole]) => whole);
}

/** Every function the table spells (a test checks each is one of the engine's). */
export function spelledFunctions(): string[] {
  return [...TABLE.keys()];
}
