// resource.Quantity: vectors from apimachinery's quantity_test.go (TestQuantityParse,
// TestQuantityString, TestQuantityParseEmit, TestParseQuantity, TestNewSet, ...).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Quantity,
  QuantityParseError,
  ERR_FORMAT_WRONG,
  ERR_SUFFIX,
  parseResourceList,
  formatResourceList,
  addResourceLists,
  subtractResourceLists,
  type QuantityFormat,
} from '../../src/api/quantity';

const q = (s: string): Quantity => Quantity.parse(s);

test('parse: value and format (TestQuantityParse)', () => {
  // [input, expected value as a decimal string parsed by Quantity itself, format]
  const table: [string, string, QuantityFormat][] = [
    ['0', '0', 'DecimalSI'],
    ['0n', '0', 'DecimalSI'],
    ['0u', '0', 'DecimalSI'],
    ['0m', '0', 'DecimalSI'],
    ['0Ki', '0', 'BinarySI'],
    ['0k', '0', 'DecimalSI'],
    ['0Mi', '0', 'BinarySI'],
    ['0M', '0', 'DecimalSI'],
    ['0Gi', '0', 'BinarySI'],
    ['0T', '0', 'DecimalSI'],
    ['1', '1', 'DecimalSI'],
    ['1Ki', '1024', 'BinarySI'],
    ['8Ki', '8192', 'BinarySI'],
    ['7Mi', String(7 * 1024 * 1024), 'BinarySI'],
    ['6Gi', String(6 * 1024 ** 3), 'BinarySI'],
    ['5Ti', String(5 * 1024 ** 4), 'BinarySI'],
    ['4Pi', String(4n * 1024n ** 5n), 'BinarySI'],
    ['3Ei', String(3n * 1024n ** 6n), 'BinarySI'],
    ['10Ti', String(10 * 1024 ** 4), 'BinarySI'],
    ['5n', '0.000000005', 'DecimalSI'],
    ['4u', '0.000004', 'DecimalSI'],
    ['3m', '0.003', 'DecimalSI'],
    ['9', '9', 'DecimalSI'],
    ['8k', '8000', 'DecimalSI'],
    ['50k', '50000', 'DecimalSI'],
    ['7M', '7000000', 'DecimalSI'],
    ['6G', '6000000000', 'DecimalSI'],
    ['5T', '5000000000000', 'DecimalSI'],
    ['40T', '40000000000000', 'DecimalSI'],
    ['300T', '300000000000000', 'DecimalSI'],
    ['2P', '2000000000000000', 'DecimalSI'],
    ['1E', '1000000000000000000', 'DecimalSI'],
    ['1E-3', '0.001', 'DecimalExponent'],
    ['1e3', '1000', 'DecimalExponent'],
    ['1E6', '1000000', 'DecimalExponent'],
    ['1e9', '1000000000', 'DecimalExponent'],
    ['1E12', '1000000000000', 'DecimalExponent'],
    ['1e14', '100000000000000', 'DecimalExponent'],
    ['100.035k', '100035', 'DecimalSI'],
    ['0.001', '0.001', 'DecimalSI'],
    ['0.0005k', '0.5', 'DecimalSI'],
    ['0.005', '0.005', 'DecimalSI'],
    ['0.5', '0.5', 'DecimalSI'],
    ['0.00050k', '0.5', 'DecimalSI'],
    ['0.5e0', '0.5', 'DecimalExponent'],
    ['0.5e-1', '0.05', 'DecimalExponent'],
    ['0.5e-2', '0.005', 'DecimalExponent'],
    ['10.035M', '10035000', 'DecimalSI'],
    ['1.2e3', '1200', 'DecimalExponent'],
    ['1.3E+6', '1300000', 'DecimalExponent'],
    ['1.40e9', '1400000000', 'DecimalExponent'],
    ['1.53E12', '1530000000000', 'DecimalExponent'],
    ['9.01', '9.01', 'DecimalSI'],
    ['8.1k', '8100', 'DecimalSI'],
    ['7.123456M', '7123456', 'DecimalSI'],
    ['6.987654321G', '6987654321', 'DecimalSI'],
    ['5.444T', '5444000000000', 'DecimalSI'],
    ['2.5P', '2500000000000000', 'DecimalSI'],
    ['1.01E', '1010000000000000000', 'DecimalSI'],
    // things that saturate or round (up, to nano)
    ['3.001n', '0.000000004', 'DecimalSI'],
    ['1.1E-9', '0.000000002', 'DecimalExponent'],
    ['0.0000000001', '0.000000001', 'DecimalSI'],
    ['0.0000000005', '0.000000001', 'DecimalSI'],
    ['0.5e-9', '0.000000001', 'DecimalExponent'],
    ['0.9n', '0.000000001', 'DecimalSI'],
    ['0.00000012345', '0.000000124', 'DecimalSI'],
    ['0.00000012354', '0.000000124', 'DecimalSI'],
    ['9Ei', '9223372036854775807', 'BinarySI'],
    ['9223372036854775807Ki', '9223372036854775807', 'BinarySI'],
    ['12E', '12000000000000000000', 'DecimalSI'],
    // fractional binary
    ['100.035Ki', '102435.84', 'BinarySI'],
    ['0.5Mi', String(0.5 * 1024 * 1024), 'BinarySI'],
    ['0.05Gi', '53687091.2', 'BinarySI'],
    ['0.025Ti', '27487790694.4', 'BinarySI'],
    // things written by trolls
    ['0.000000000001Ki', '0.000000002', 'DecimalSI'],
    ['.001', '0.001', 'DecimalSI'],
    ['.0001k', '0.1', 'DecimalSI'],
    ['1.', '1', 'DecimalSI'],
    ['1.G', '1000000000', 'DecimalSI'],
  ];
  for (const [input, value, format] of table) {
    const got = q(input);
    assert.equal(got.cmp(q(value)), 0, `${input}: value ${got} vs ${value}`);
    assert.equal(got.format, format, `${input}: format`);
    // the negative and explicitly positive forms parse to the negation / the same
    const neg = q(`-${input}`);
    assert.equal(neg.cmp(got.neg()), 0, `-${input}`);
    assert.equal(neg.format, format, `-${input}: format`);
    assert.equal(q(`+${input}`).cmp(got), 0, `+${input}`);
  }
});

test('parse: errors carry upstream messages', () => {
  const invalid = ['', '1.1.M', '1+1.0M', '0.1mi', '0.1am', 'aoeu', '.5i', '1i', '-3.01i', '-3.01e-', ' 1', '1 '];
  for (const s of invalid) assert.throws(() => q(s), QuantityParseError, JSON.stringify(s));
  assert.throws(() => q('aoeu'), { message: ERR_FORMAT_WRONG });
  assert.throws(() => q('0.1mi'), { message: ERR_SUFFIX });
  assert.equal(
    ERR_FORMAT_WRONG,
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  );
  assert.equal(Quantity.tryParse('nope'), undefined);
  assert.equal(Quantity.tryParse('1Gi')?.toString(), '1Gi');
});

test('canonical strings (TestQuantityString, TestQuantityParseEmit)', () => {
  const table: [string, string][] = [
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['307200Ki', '300Mi'],
    ['1025024Mi', '1001Gi'],
    ['1024Gi', '1Ti'],
    ['1000M', '1G'],
    ['0.001T', '1G'],
    ['1000u', '1m'],
    ['1.08', '1080m'],
    ['1080000000n', '1080m'],
    ['.001e12', '1e9'],
    ['0.001e0', '1e-3'],
    ['1000e-12', '1e-9'],
    ['00', '0'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    // the brief's examples
    ['8010172Ki', '8010172Ki'],
    ['260m', '260m'],
    ['0.5', '500m'],
    ['1000m', '1'],
    ['110', '110'],
    ['1e3', '1e3'],
    ['1500k', '1500k'],
    ['1.5Gi', '1536Mi'],
    ['1.5', '1500m'],
    ['100.035Ki', '102435840m'],
    ['0.5Mi', '512Ki'],
    ['9Ei', '9223372036854775807'],
    ['12E', '12E'],
    ['3.001n', '4n'],
    // TestParseQuantity (19+ digits take the inf.Dec path)
    ['999999999999999999', '999999999999999999'],
    ['999999999999999999.1', '999999999999999999100m'],
    ['9999999999999999999', '9999999999999999999'],
    ['1000000000000000000', '1E'],
    ['1.0E', '1E'],
    ['9999999999999999999000m', '9999999999999999999'],
    ['1.0000000000000000001E', '1000000000000000000100m'],
    ['10E', '10E'],
    ['10000000000000000000', '10E'],
    ['9223372036854775808.1', '9223372036854775808100m'],
  ];
  for (const [input, canonical] of table) {
    assert.equal(q(input).toString(), canonical, input);
    if (q(input).cmp(Quantity.zero()) !== 0) assert.equal(q(`-${input}`).toString(), `-${canonical}`, `-${input}`);
    // canonical output parses back to the same value and prints the same
    assert.equal(q(canonical).cmp(q(input)), 0, `${canonical} round trip`);
    assert.equal(q(canonical).toString(), canonical, `${canonical} reprint`);
  }
});

test('canonical strings of constructed quantities (TestNewSet, TestMilliNewSet, TestNewScaledSet)', () => {
  assert.equal(Quantity.fromValue(1, 'DecimalSI').toString(), '1');
  assert.equal(Quantity.fromValue(1000, 'DecimalSI').toString(), '1k');
  assert.equal(Quantity.fromValue(1234000, 'DecimalSI').toString(), '1234k');
  assert.equal(Quantity.fromValue(1024, 'BinarySI').toString(), '1Ki');
  assert.equal(Quantity.fromValue(1000000, 'DecimalExponent').toString(), '1e6');
  assert.equal(Quantity.fromValue(1024 * 1024, 'BinarySI').toString(), '1Mi');
  assert.equal(Quantity.fromValue(5, 'BinarySI').toString(), '5');
  assert.equal(Quantity.fromValue(1025, 'BinarySI').toString(), '1025');
  assert.equal(Quantity.fromValue(2000, 'BinarySI').toString(), '2000');
  assert.equal(Quantity.fromValue(-2000, 'BinarySI').toString(), '-2000');
  assert.equal(Quantity.fromValue(300 * 1024 * 1024, 'BinarySI').toString(), '300Mi');
  assert.equal(Quantity.fromValue(0, 'BinarySI').toString(), '0');

  assert.equal(Quantity.fromMilli(1).toString(), '1m');
  assert.equal(Quantity.fromMilli(1000).toString(), '1');
  assert.equal(Quantity.fromMilli(1234000).toString(), '1234');
  assert.equal(Quantity.fromMilli(1024, 'BinarySI').toString(), '1024m');
  assert.equal(Quantity.fromMilli(1000000, 'DecimalExponent').toString(), '1e3');
  assert.equal(Quantity.fromMilli(1024 * 1024, 'BinarySI').toString(), '1048576m');
  assert.equal(Quantity.fromMilli(500, 'BinarySI').toString(), '500m');

  const scaled: [number, number, string][] = [
    [1, -9, '1n'],
    [1000, -9, '1u'],
    [1, -6, '1u'],
    [1000, -6, '1m'],
    [1, -3, '1m'],
    [1000, -3, '1'],
    [1, 0, '1'],
    [0, -9, '0'],
    [1, 9, '1G'],
    [1000, 6, '1G'],
    [1234567, 6, '1234567M'],
    [3, 3, '3k'],
    [80, -9, '80n'],
    [108, -8, '1080n'],
    [10800, -10, '1080n'],
    [80, -6, '80u'],
  ];
  for (const [v, s, out] of scaled) assert.equal(Quantity.fromScaled(v, s).toString(), out, `${v}e${s}`);

  // values DecimalSI has no suffix for keep their magnitude in exponent form
  assert.equal(Quantity.fromScaled(1, 21).toString(), '1e21');
  assert.equal(Quantity.fromScaled(1, -12).toString(), '1e-12');
  assert.equal(q('1000E').toString(), '1e21');
  assert.equal(q('1Ei').mul(1024).toString(), '1180591620717411303424');
});

test('input strings upstream keeps verbatim', () => {
  // upstream reuses the input when its quick canonical test passes
  assert.equal(q('+1').toString(), '+1');
  assert.equal(q('007').toString(), '007');
  assert.equal(q('1E-3').toString(), '1E-3');
  assert.equal(q('+5Ki').toString(), '+5Ki');
  // ...but not after arithmetic
  assert.equal(q('+1').add(q('0')).toString(), '1');
  assert.equal(JSON.stringify({ cpu: q('260m') }), '{"cpu":"260m"}');
});

test('milliValue and value round up like MilliValue/Value', () => {
  assert.equal(q('260m').milliValue(), 260);
  assert.equal(q('110').milliValue(), 110000);
  assert.equal(q('0.5').milliValue(), 500);
  assert.equal(q('1.5').value(), 2);
  assert.equal(q('100.035Ki').value(), 102436);
  assert.equal(q('1n').milliValue(), 1);
  assert.equal(q('1n').value(), 1);
  assert.equal(q('-1.5').value(), -2); // away from zero
  assert.equal(q('8010172Ki').value(), 8010172 * 1024);
  assert.equal(q('1.5Gi').value(), 1610612736);
  assert.equal(q('0').milliValue(), 0);
  // TestScaledValue
  const pairs: [number, number, number][] = [
    [-9, -9, 1],
    [-9, -6, 1],
    [-9, -3, 1],
    [-9, 0, 1],
    [-6, -9, 1000],
    [-6, 0, 1],
    [-3, -9, 1000000],
    [-3, -6, 1000],
    [-3, 0, 1],
    [0, -9, 1e9],
    [0, -6, 1e6],
    [0, -3, 1000],
    [0, 0, 1],
    [2, -2, 10000],
  ];
  for (const [from, to, want] of pairs)
    assert.equal(Quantity.fromScaled(1, from).scaledValue(to), want, `${from}→${to}`);
  // saturates at the int64 range instead of overflowing
  assert.equal(q('1e30').value(), Number((1n << 63n) - 1n)); // int64's maximum, as a number holds it
  assert.equal(q('1e30').scaledValueBigInt(0), 10n ** 30n);
  assert.equal(q('1.5').asInt64(), undefined);
  assert.equal(q('1k').asInt64(), 1000n);
  assert.equal(q('250m').asApproximateFloat64(), 0.25);
});

test('arithmetic is exact and keeps formats like Add/Sub (TestAdd, TestSub, preserve-suffix tests)', () => {
  assert.equal(q('10').add(q('1e1')).cmp(q('20')), 0);
  assert.equal(q('10').sub(q('1e1')).isZero(), true);
  assert.equal(q('100m').add(q('0')).toString(), '100m');
  assert.equal(q('0').add(q('100m')).toString(), '100m');
  assert.equal(q('1Gi').add(q('0')).toString(), '1Gi');
  assert.equal(q('0').add(q('1Gi')).toString(), '1Gi');
  assert.equal(q('0').sub(q('1Gi')).toString(), '-1Gi');
  assert.equal(q('1Gi').sub(q('0')).toString(), '1Gi');
  assert.equal(q('10').add(Quantity.fromValue(1, 'BinarySI')).format, 'DecimalSI');
  assert.equal(Quantity.fromValue(10, 'BinarySI').add(q('1')).format, 'BinarySI');
  // sums of a node's allocatable and pod requests stay exact
  assert.equal(q('3500m').sub(q('260m')).sub(q('100m')).toString(), '3140m');
  assert.equal(q('8010172Ki').sub(q('200Mi')).toString(), '7805372Ki');
  assert.equal(q('0.1').add(q('0.2')).cmp(q('300m')), 0);
  assert.equal(q('1.5Gi').add(q('512Mi')).toString(), '2Gi');
  assert.equal(q('110').add(q('1')).toString(), '111');
  assert.equal(q('9.01').neg().toString(), '-9010m');
  assert.equal(q('10').mul(-10).toString(), '-100');
});

test('cmp (TestQuantityCmp)', () => {
  assert.equal(q('0').cmp(q('0')), 0);
  assert.equal(q('100m').cmp(q('50m')), 1);
  assert.equal(q('50m').cmp(q('100m')), -1);
  assert.equal(q('10000T').cmp(q('100Gi')), 1);
  assert.equal(q('1Gi').cmp(q('1073741824')), 0);
  assert.equal(q('-1').cmp(q('1n')), -1);
  assert.equal(q('-2').cmp(q('-1')), -1);
  assert.equal(q('1e100').cmp(q('1e99')), 1);
  assert.equal(q('800m').cmp(q('1')), -1);
  assert.equal(q('800m').cmp(q('790m')), 1);
  assert.ok(q('1').equals(q('1000m')));
});

test('resource lists', () => {
  const requests = parseResourceList({ cpu: '250m', memory: '64Mi' });
  const limits = parseResourceList({ cpu: '0.5', memory: '128Mi', 'nvidia.com/gpu': '1' });
  assert.deepEqual(formatResourceList(addResourceLists(requests, limits)), {
    cpu: '750m',
    memory: '192Mi',
    'nvidia.com/gpu': '1',
  });
  assert.deepEqual(formatResourceList(subtractResourceLists(requests, limits)), {
    cpu: '-250m',
    memory: '-64Mi',
    'nvidia.com/gpu': '-1',
  });
  assert.equal(parseResourceList(undefined).size, 0);
  assert.throws(
    () => parseResourceList({ cpu: 'lots' }),
    (e: unknown) => e instanceof QuantityParseError && e.message.startsWith('cpu: '),
  );
});
