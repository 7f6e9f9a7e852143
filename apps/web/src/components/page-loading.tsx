import { Center, Loader } from '@mantine/core';

/** A screen whose record is on its way: the loader where its content will be. */
export function PageLoading() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}
