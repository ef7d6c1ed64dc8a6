import { storeKey as key, type Store } from '../store/index.js';

/** The materials' store keys: records, their index, the upload lease and blobs kept in the store. */
export const materialKeys = {
  material: (id: string) => key('material', id),
  materialIndex: () => key('materials'),
  materialLock: (id: string) => key('material', id, 'lock'),
  blob: (name: string) => key('blob', name),
};

/** Deletes a material's upload lease (data/'s material deletion; the record and blobs go through MaterialService.remove). */
export async function deleteMaterialLock(store: Store, materialId: string): Promise<void> {
  await store.del(materialKeys.materialLock(materialId));
}
