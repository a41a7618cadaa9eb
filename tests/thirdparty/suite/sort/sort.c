/* SPDX-License-Identifier: Apache-2.0 */
/* A program of an upstream suite as it is written (TACLe-style): its own main, global names that
 * other programs of the suite use too (data, checksum), init/main/return entry points. */
int data[16];
int checksum;

void sort_init(void)
{
	for (int i = 0; i < 16; i++)
		data[i] = (i * 7 + 3) % 16;
}

void sort_main(void)
{
	int a[16];
	for (int i = 0; i < 16; i++)
		a[i] = data[i];
	for (int i = 1; i < 16; i++) {
		int v = a[i], j = i - 1;
		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
	checksum = 0;
	for (int i = 0; i < 16; i++)
		checksum = checksum * 3 + a[i];
}

int sort_return(void)
{
	int want = 0;
	for (int i = 0; i < 16; i++)
		want = want * 3 + i;
	return checksum == want ? 0 : -1;
}

int main(void)
{
	sort_init();
	sort_main();
	return sort_return();
}
